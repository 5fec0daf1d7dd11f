/**
 * The rule for the titles and free texts of bits, flows and references (authoring-interface.md, "Bit", "Flow",
 * "Reference"), stated once for all three. Lengths are checked by the tool schemas; what is left here is what a
 * schema cannot say.
 */
import { LIMITS } from '../../limits/index.js';
import { WaymarkError } from '../../errors.js';

/**
 * A title is stored trimmed, and blank (empty or only whitespace) is refused on create and on update:
 * "non-empty; cannot be blanked".
 */
export function checkTitle(title: string, field: string): string {
  const trimmed = title.trim();
  if (trimmed === '') {
    throw new WaymarkError('VALIDATION_ERROR', `${field} cannot be blank: give a non-empty title of at most ${LIMITS.title} characters.`, {
      issues: [{ path: field, message: 'must not be blank' }],
    });
  }
  return trimmed;
}

/** checkTitle for an update, where an omitted title stays unchanged. */
export function checkTitleIfGiven(title: string | undefined, field: string): string | undefined {
  return title === undefined ? undefined : checkTitle(title, field);
}

/**
 * An abstract or description: blank (empty or only whitespace) or null stores null ("an empty string stores
 * null"), any other text is kept as written; undefined (omitted on update) stays undefined.
 */
export function blankToNull(value: string | null): string | null;
export function blankToNull(value: string | null | undefined): string | null | undefined;
export function blankToNull(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  return value.trim() === '' ? null : value;
}
