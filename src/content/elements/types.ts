/**
 * The shape of an element definition (one module per type beside this file) and the prop helpers they share.
 * Everything else (validation of entries, the markdown forms, describe_platform, answer checks) is derived
 * from these definitions.
 */
import { z } from 'zod';
import type { ValidationIssue } from '../../errors.js';
import { inputIssues } from '../../zod-issues.js';
import { quote } from '../../quote.js';

import type { ElementType } from './element-types.js';

export { ELEMENT_TYPES, isElementType, type ElementType } from './element-types.js';

/** An element as the answer checks see it (a stored node or a listed element). */
export interface AnswerTarget {
  id: string;
  type: ElementType;
  props: Record<string, unknown>;
  items?: Array<{ id: string; [field: string]: unknown }>;
}

export type AnswerResult =
  | { ok: true; value: unknown; warnings: string[] }
  | { ok: false; issues: ValidationIssue[] };

export interface ItemsDefinition {
  /** What stands before an item's anchor on its line: `[ ]`/`[x]`, `( )`/`(x)`, or nothing. */
  marker: 'checkbox' | 'radio' | 'none';
  /** The item field written as the item's text on its line (CONTRACT.md, "Body forms"). */
  textField: 'text' | 'name';
  /** The item's fields (strict: other fields are refused). */
  fields: z.ZodObject;
  /** Boolean fields stored as false when not given, so a stored item is always complete. */
  booleanDefaults: readonly string[];
  /** What describe_platform adds to the item line's form (how its state is written). */
  syntaxNotes?: string;
  /** Checks across the items of one element. */
  check?: (items: ReadonlyArray<Record<string, unknown>>) => ValidationIssue[];
}

/**
 * One question of a flat form, the profile MCP form elicitation renders (a string, a choice, a date, a tick):
 * `schema` is its JSON Schema (type, title, and the element's own limits), `tick` an unticked box that is no answer.
 */
export interface FormQuestion {
  id: string;
  kind: 'text' | 'choices' | 'tick';
  schema: Record<string, unknown>;
  required: boolean;
}

/**
 * The kind of form control a step shows for an element, named for the control rather than the type, so a form
 * (the web step form) keys its controls on it: `checklist`, a box to tick per item; `select` and `radio`, one
 * option of the items; `date`, a date or time input; `search`, a value looked up in a list; `text`, free text;
 * `link-card`, a card whose click is recorded; `link`, a link inside a sentence (drawn by the body); `video`, a
 * player to watch; `frame`, an embedded page that records nothing.
 */
export const ELEMENT_CONTROLS = ['checklist', 'select', 'radio', 'date', 'search', 'text', 'link-card', 'link', 'video', 'frame'] as const;
export type ElementControl = (typeof ELEMENT_CONTROLS)[number];

export interface ElementDefinition {
  type: ElementType;
  /** What a step and submit_step_data call it; null for iframe, which records nothing. */
  stepType: string | null;
  /** The interface document's one-line description. */
  summary: string;
  /** Whether the element line carries a label (iframe, link-block and video-external do not). */
  hasLabel: boolean;
  /**
   * Where it stands in a body: `block`, a line of its own; `inline`, inside a sentence, written as a link
   * whose destination is its `url` prop and whose text is the element's children.
   */
  placement: 'block' | 'inline';
  /**
   * What a step answers: the element by its own id, or each item by its own id (each item is then a
   * question of its own, a tick: required means answered true, and an elements[] entry may edit one item
   * through `parent_element_id`).
   */
  answered: 'element' | 'items';
  /**
   * How a connection can depend on it (`when=`, Body syntax rule 4): `options`, on the item chosen (`when`
   * names the element and option ids); `item-checked`, on one item being checked or not (`when` names the
   * item). Absent: no connection depends on it.
   */
  when?: 'options' | 'item-checked';
  /** The control a form shows for it. */
  control: ElementControl;
  /** Allowed props with their types and limits (strict object: the keys are the allowed props). */
  props: z.ZodObject;
  /** Props holding a url: checked for a safe scheme. */
  urlProps: readonly string[];
  /** Checks across props that a per-prop schema cannot express. */
  crossCheck?: (props: Record<string, unknown>) => ValidationIssue[];
  items?: ItemsDefinition;
  /** The inner value of an answer (`{value: <inner>}`), CONTRACT.md "Answer values"; null when nothing is recorded. */
  answer: z.ZodType | null;
  /** What the answer must be beyond its shape, for describe_platform. */
  answerRule: string;
  /** Checks an inner value against the element's config; `item` is the check-list item answered. */
  checkAnswer(value: unknown, element: AnswerTarget): AnswerResult;
  /**
   * The element as a form question (titled `title`) when its answer is not derived from its items (a tick per
   * item, or one of its options: formQuestions does those); absent when it has no form in the profile (links and
   * videos record what a person did with them, not an answer), null for a config that has none.
   */
  formQuestion?(props: Record<string, unknown>, title: string): Omit<FormQuestion, 'id' | 'required'> | null;
}

// ---- prop helpers ----------------------------------------------------------------------------------

const INTEGER_TEXT = /^(0|-?[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * "integer or string; a string is the same number as text" (interface document, element props): `12` and
 * `"12"` are accepted, `"12a"`, `"1.5"` and `"012"` are not; the range applies to the number.
 */
export function integerOrText(min: number, max: number): z.ZodType<number | string> {
  const error = `must be an integer from ${min} to ${max}, or that number written as text`;
  return z
    .union([z.number({ error }).int({ error }).min(min, { error }).max(max, { error }), z.string({ error }).regex(INTEGER_TEXT, { error })], { error })
    .refine((v) => typeof v === 'number' || (Number(v) >= min && Number(v) <= max), { error });
}

/** "number or string (a string is the same number as text)": iframe height/width, video maxWidth. */
export function numberOrText(): z.ZodType<number | string> {
  const error = 'must be a number, or a number written as text';
  return z.union([z.number({ error }).finite({ error }), z.string({ error }).regex(NUMBER_TEXT, { error })], { error });
}

export const urlDisplayOption = z.enum(['none', 'full', 'domain']);

/** The number behind an integer-or-text prop, or undefined when the prop is absent. */
export function numberProp(props: Record<string, unknown>, name: string): number | undefined {
  const v = props[name];
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') return Number(v);
  return undefined;
}

// ---- answer helpers --------------------------------------------------------------------------------

export function accepted(value: unknown, warnings: string[] = []): AnswerResult {
  return { ok: true, value, warnings };
}

export function refused(message: string, path = 'value'): AnswerResult {
  return { ok: false, issues: [{ path, message }] };
}

/** Parses `value` with `schema`; on failure, the zod issues as answer issues. */
export function parseAnswer<T>(schema: z.ZodType<T>, value: unknown): { ok: true; value: T } | { ok: false; result: AnswerResult } {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  return {
    ok: false,
    result: { ok: false, issues: inputIssues(r.error, schema, value, 'value') },
  };
}

/** The link answer shared by LinkBlock and LinkInline: `{clicked, url}` with url equal to the element's url. */
export const linkAnswer = z.strictObject({ clicked: z.boolean(), url: z.string() });

export function checkLinkAnswer(value: unknown, element: AnswerTarget): AnswerResult {
  const parsed = parseAnswer(linkAnswer, value);
  if (!parsed.ok) return parsed.result;
  const expected = typeof element.props.url === 'string' ? element.props.url : '';
  if (parsed.value.url !== expected) {
    return refused(`url must be the element's url '${expected}'`, 'value.url');
  }
  return accepted(parsed.value);
}

/**
 * Choices as an error names them, so that an agent can match the id to what a person reads: `id "label"`
 * (the id alone when it has no label), at most CHOICES_SHOWN of them, the rest counted (a searchable-field
 * may hold 5000 values; the message stays short).
 */
const CHOICES_SHOWN = 20;

export function choiceList(choices: ReadonlyArray<{ id: string; label?: string | null }>): string {
  const shown = choices.slice(0, CHOICES_SHOWN).map((c) => (c.label ? `${quote(c.id)} "${quote(c.label, 80)}"` : quote(c.id)));
  const more = choices.length - shown.length;
  return `${shown.join(', ') || 'none'}${more > 0 ? ` (and ${more} more)` : ''}`;
}

/** The option answer shared by Dropdown and RadioButton: the chosen item's id; `labelField` is the item field a person reads. */
export function optionAnswer(labelField: 'name' | 'text'): (value: unknown, element: AnswerTarget) => AnswerResult {
  return (value, element) => {
    const options = (element.items ?? []).map((i) => ({ id: i.id, label: typeof i[labelField] === 'string' ? (i[labelField] as string) : null }));
    const known = () => `the options (id "label") are: ${choiceList(options)}`;
    if (typeof value !== 'string') return refused(`must be the chosen option's id (a string); ${known()}`);
    if (!options.some((o) => o.id === value)) return refused(`${quote(value)} is not an option id; ${known()}`);
    return accepted(value);
  };
}
