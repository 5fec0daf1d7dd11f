/**
 * The names of the element types, apart from their definitions (which need zod), so that a page which only
 * renders bodies can tell an element node without loading them.
 */

/** authoring-interface.md, "Interactive elements": the ten types, in the document's order. */
export const ELEMENT_TYPES = [
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
export type ElementType = (typeof ELEMENT_TYPES)[number];

const TYPE_SET: ReadonlySet<string> = new Set(ELEMENT_TYPES);

export function isElementType(type: unknown): type is ElementType {
  return typeof type === 'string' && TYPE_SET.has(type);
}
