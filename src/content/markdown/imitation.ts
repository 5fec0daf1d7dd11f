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
import { elementTypePattern } from '../elements/element-types.js';

/** Stands in the raw view for a character written as an escape or entity. */
export const ESCAPED = '\u0000';

let types = '';
let TEXT_IMITATION = /$^/;
let LINK_TEXT_IMITATION = /$^/;

/** The patterns follow the registered types (a type registered later is matched too). */
function patterns(): void {
  const now = elementTypePattern();
  if (now === types) return;
  types = now;
  TEXT_IMITATION = new RegExp(`\\[\\s*(?:(?:${types})\\s*[:\\]]|\\[ref:)`);
  LINK_TEXT_IMITATION = new RegExp(`^\\s*(?:${types})\\s*(?::|$)`);
}

/** The imitation in a run of text (raw view), or null. */
export function textImitation(raw: string): string | null {
  if (!raw.includes('[')) return null;
  patterns();
  const m = TEXT_IMITATION.exec(raw);
  return m ? m[0] : null;
}

export function linkTextImitates(raw: string): boolean {
  patterns();
  return LINK_TEXT_IMITATION.test(raw);
}
