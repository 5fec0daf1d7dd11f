/**
 * Field rules of a bit (authoring-interface.md, "Bit" and "Limits"), shared by add_bit and update_bit.
 * Lengths are checked by the tool schemas; what is left here is what a schema cannot say.
 */
import { WaymarkError } from '../errors.js';

/** `bit_abstract` and `bit_description`: an empty string stores null. */
export function emptyToNull(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return value === '' ? null : value;
}

/** A title is non-empty and cannot be blanked on update. */
export function checkTitle(title: string | undefined, field = 'bit_title'): string | undefined {
  if (title === undefined) return undefined;
  if (title.trim() === '') {
    throw new WaymarkError('VALIDATION_ERROR', `${field} cannot be blank: give a non-empty title of at most 256 characters.`, {
      issues: [{ path: field, message: 'must not be blank' }],
    });
  }
  return title;
}
