/**
 * The element registry: every element type's definition, and the checks derived from them that the
 * converter, the services and describe_platform share.
 */
import { joinPath, validationError, WaymarkError } from '../../errors.js';
import { inputIssues } from '../../zod-issues.js';
import { assertSafeUrl } from '../url.js';
import { checkList } from './check-list.js';
import { datePicker } from './date-picker.js';
import { dropdown } from './dropdown.js';
import { iframe } from './iframe.js';
import { linkBlock } from './link-block.js';
import { linkInline } from './link-inline.js';
import { radioButton } from './radio-button.js';
import { searchableField } from './searchable-field.js';
import { textArea } from './text-area.js';
import { addElementType } from './element-types.js';
import { ELEMENT_TYPES, isElementType, type ElementControl, type ElementDefinition, type ElementType } from './types.js';
import { videoExternal } from './video-external.js';

export { ELEMENT_CONTROLS, ELEMENT_TYPES, choiceList, isElementType, type ElementControl, type ElementDefinition, type ElementType } from './types.js';

export const ELEMENTS: Readonly<Record<ElementType, ElementDefinition>> = {
  'check-list': checkList,
  'date-picker': datePicker,
  dropdown,
  iframe,
  'link-block': linkBlock,
  'link-inline': linkInline,
  'radio-button': radioButton,
  'searchable-field': searchableField,
  'text-area': textArea,
  'video-external': videoExternal,
};

/**
 * Adds an element type that is not built in (a built-in type is its definition file plus its line above and in
 * element-types.ts): from here on its definition is read wherever an element is (entries, element and item
 * lines, Slate input, answers, `when=`, describe_platform). A type that exists is refused.
 */
export function registerElement(def: ElementDefinition): void {
  if (isElementType(def.type)) throw new Error(`element type ${def.type} exists`);
  (ELEMENTS as Record<string, ElementDefinition>)[def.type] = def;
  addElementType(def.type);
}

/** Whether a step answers the items of `type` each on its own (a check-list's), rather than the element. */
export function answeredByItems(type: string): boolean {
  return isElementType(type) && ELEMENTS[type].answered === 'items';
}

/** The control a form shows for an element of `type`; undefined for a type no definition has. */
export function controlOf(type: string): ElementControl | undefined {
  return isElementType(type) ? ELEMENTS[type].control : undefined;
}

/** The element types whose items are answered each on its own (a step's questions are the items). */
export function typesAnsweredByItems(): ElementType[] {
  return ELEMENT_TYPES.filter((t) => ELEMENTS[t].answered === 'items');
}

export function elementDefinition(type: ElementType): ElementDefinition {
  return ELEMENTS[type];
}

/** The element type whose step type name is `stepType` (e.g. `TextArea` → text-area). */
export function elementTypeForStep(stepType: string): ElementType | undefined {
  return ELEMENT_TYPES.find((t) => ELEMENTS[t].stepType === stepType);
}

export function allowedProps(type: ElementType): string[] {
  return Object.keys(ELEMENTS[type].props.shape).sort();
}

/**
 * Validates the complete props of an element: an unknown prop is UNKNOWN_ELEMENT_PROP (with
 * `allowed_props`), a wrong type, a limit or a missing required prop or an unsafe url VALIDATION_ERROR.
 * Returns the props without `undefined` values.
 */
export function validateElementProps(type: ElementType, props: Record<string, unknown>, path = 'props'): Record<string, unknown> {
  assertKnownProps(type, props);
  const def = ELEMENTS[type];
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) if (v !== undefined) clean[k] = v;
  // The element line's label is read trimmed, so the prop is stored trimmed: what get_bit prints reads back the same.
  if (def.hasLabel && typeof clean.label === 'string') clean.label = clean.label.trim();
  const r = def.props.safeParse(clean);
  const issues = r.success ? [] : inputIssues(r.error, def.props, clean, path);
  if (r.success && def.crossCheck) issues.push(...def.crossCheck(clean).map((i) => ({ ...i, path: joinPath(path, i.path) })));
  if (issues.length > 0) throw validationError(issues, `${type} ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  for (const name of def.urlProps) {
    if (typeof clean[name] === 'string') assertSafeUrl(clean[name], `${type} ${name}`, { absolute: true });
  }
  return clean;
}

/** Refuses a prop the type does not allow (authoring-interface.md, "Interactive elements"). */
export function assertKnownProps(type: ElementType, props: Record<string, unknown>): void {
  const shape = ELEMENTS[type].props.shape;
  for (const prop of Object.keys(props)) {
    if (!Object.prototype.hasOwnProperty.call(shape, prop)) {
      const allowed = allowedProps(type);
      throw new WaymarkError(
        'UNKNOWN_ELEMENT_PROP',
        `${type} has no prop '${prop}'; allowed props: ${allowed.join(', ')}`,
        { type, prop, allowed_props: allowed },
      );
    }
  }
}

/** Validates one item's fields (without its id or key) and fills the boolean defaults. */
export function validateItemFields(type: ElementType, fields: Record<string, unknown>, path: string): Record<string, unknown> {
  const items = ELEMENTS[type].items;
  if (!items) throw validationError([{ path, message: `${type} has no items` }]);
  const r = items.fields.safeParse(fields);
  // An unknown field's issue names the fields an item of this type has (inputIssues).
  if (!r.success) throw validationError(inputIssues(r.error, items.fields, fields, path));
  const out: Record<string, unknown> = { ...(r.data as Record<string, unknown>) };
  // Like a label: the item line's text is read trimmed, so the field is stored trimmed.
  if (typeof out[items.textField] === 'string') out[items.textField] = (out[items.textField] as string).trim();
  for (const name of items.booleanDefaults) if (out[name] === undefined) out[name] = false;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
}

/** Checks across the items of one element (e.g. one default radio choice). */
export function checkItems(type: ElementType, items: ReadonlyArray<Record<string, unknown>>, path: string): void {
  const issues = ELEMENTS[type].items?.check?.(items) ?? [];
  if (issues.length > 0) throw validationError(issues.map((i) => ({ ...i, path: joinPath(path, i.path) })));
}
