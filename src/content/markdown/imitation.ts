/**
 * "Element-like text written as prose is refused" (authoring-interface.md, Body syntax rule 1). The
 * precise rule, applied to the source as written (a character written as an escape or an entity does not
 * count, so `\[dropdown: x]` is prose on purpose, and the renderer writes such text that way):
 *
 * - text holding `[` followed by an element type and `:` or `]` (`[dropdown: Foo]`, `[iframe]`), or
 *   `[[ref:` that is not a well-formed citation;
 * - a link whose text starts with an element type followed by `:` or by nothing (`[text-area: x](https://…)`,
 *   `[iframe](https://…)`): it looks like an element line with another scheme.
 *
 * Type names are matched as written (lowercase), so ordinary prose such as "[Dropdown menus](…)" stays a link.
 */
import { ELEMENT_TYPES } from '../elements/index.js';

/** Stands in the raw view for a character written as an escape or entity. */
export const ESCAPED = '\u0000';

const TYPES = ELEMENT_TYPES.map((t) => t.replace(/[-]/g, '\\-')).join('|');

const TEXT_IMITATION = new RegExp(`\\[\\s*(?:(?:${TYPES})\\s*[:\\]]|\\[ref:)`);
const LINK_TEXT_IMITATION = new RegExp(`^\\s*(?:${TYPES})\\s*(?::|$)`);

/** The imitation in a run of text (raw view), or null. */
export function textImitation(raw: string): string | null {
  if (!raw.includes('[')) return null;
  const m = TEXT_IMITATION.exec(raw);
  return m ? m[0] : null;
}

export function linkTextImitates(raw: string): boolean {
  return LINK_TEXT_IMITATION.test(raw);
}
