/**
 * The names of the element types, apart from their definitions (which need zod), so that a page which only
 * renders bodies can tell an element node without loading them.
 */

/** authoring-interface.md, "Interactive elements": the ten types, in the document's order. */
const BUILT_IN = [
  'check-list',
  'date-picker',
  'dropdown',
  'iframe',
  'link-block',
  'link-inline',
  'radio-button',
  'searchable-field',
  'text-area',
  'video-external',
] as const;
export type ElementType = (typeof BUILT_IN)[number];

/** Every element type: the built-in ones, then any registered since (elements/index.ts, registerElement). */
export const ELEMENT_TYPES: readonly ElementType[] = [...BUILT_IN];

const TYPE_SET = new Set<string>(ELEMENT_TYPES);

/** Adds a type name (registerElement adds its definition alongside). */
export function addElementType(type: ElementType): void {
  (ELEMENT_TYPES as ElementType[]).push(type);
  TYPE_SET.add(type);
}

export function isElementType(type: unknown): type is ElementType {
  return typeof type === 'string' && TYPE_SET.has(type);
}

let pattern = '';
let patternOf = 0;

/** The type names as a regular expression alternation (`check\-list|date\-picker|…`), for the imitation and escape rules. */
export function elementTypePattern(): string {
  if (patternOf !== ELEMENT_TYPES.length) {
    pattern = ELEMENT_TYPES.map((t) => t.replace(/[-]/g, '\\-')).join('|');
    patternOf = ELEMENT_TYPES.length;
  }
  return pattern;
}
