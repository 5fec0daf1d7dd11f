/**
 * The answer rules of a step's fields, derived from the payload's element configs and checked with the
 * element definitions themselves (src/content/elements: the same checkAnswer submit_step_data runs), so
 * what the form says before and after submitting is what the server enforces, with no limit copied here.
 */
import { answeredByItems, controlOf, ELEMENTS, isElementType } from '../../src/content/elements/index.js';
import { dateAnswerFormat } from '../../src/content/elements/date-picker.js';
import { numberProp, type AnswerTarget } from '../../src/content/elements/types.js';
import type { AnswerInput, AnswerView, StepElement, StepError } from './payload.js';

/** One answerable unit: an element, or one item of a check-list (answered on its own as a CheckListItem). */
export interface Field {
  /** What an answer names: the element id, or the check-list item's id. */
  id: string;
  element: StepElement;
  stepType: string;
  label: string;
  required: boolean;
}

export interface FieldCheck {
  errors: string[];
  warnings: string[];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export function elementLabel(element: StepElement): string {
  return text(element.config.label) ?? text(element.config.custom_title) ?? text(element.config.altText) ?? text(element.config.url) ?? element.type;
}

/** Every answerable field of a step, in body order (iframes record nothing and have none). */
export function fieldsOf(step: { elements: StepElement[] }): Field[] {
  const fields: Field[] = [];
  for (const element of step.elements) {
    if (element.element_type === null) continue;
    if (answeredByItems(element.type)) {
      for (const item of element.items ?? []) {
        fields.push({ id: item.id, element, stepType: element.element_type, label: String(item.text ?? item.id), required: item.required === true });
      }
    } else {
      fields.push({ id: element.element_id, element, stepType: element.element_type, label: elementLabel(element), required: element.required });
    }
  }
  return fields;
}

/** Rules as sentences: each ends with one full stop (an author's message may bring its own). */
export function sentences(rules: string[]): string {
  return rules.map((r) => (/[.!?…]$/.test(r.trim()) ? r.trim() : `${r.trim()}.`)).join(' ');
}

/** The rules a person reads next to the field before answering (required first). */
export function rulesFor(field: Field): string[] {
  const { type, config } = field.element;
  const rules: string[] = [];
  if (field.required) rules.push(answeredByItems(type) ? 'Required: tick it before continuing' : 'Required');
  // Items answered as one (the element's options): one of them is the answer.
  if (isElementType(type) && ELEMENTS[type].items && !answeredByItems(type)) rules.push('Choose one option');
  // The notes of a control that reads free text, a date or a looked-up value (its definition's `control`).
  switch (controlOf(type)) {
    case 'text': {
      const min = numberProp(config, 'minLength');
      const max = numberProp(config, 'maxLength');
      if (min !== undefined && max !== undefined) rules.push(`${min} to ${max} characters`);
      else if (min !== undefined) rules.push(`At least ${min} characters`);
      else if (max !== undefined) rules.push(`At most ${max} characters`);
      if (typeof config.validationPattern === 'string') {
        rules.push(text(config.validationMessage) ?? `Must match the pattern ${config.validationPattern}`);
      }
      if (config.validationMode === 'warning' && rules.length > (field.required ? 1 : 0)) rules.push('These limits warn but do not block');
      break;
    }
    case 'date': {
      const pickerType = typeof config.picker_type === 'string' ? config.picker_type : 'date';
      const noun = pickerType === 'time' ? 'A time' : pickerType === 'datetime-local' ? 'A date and time' : 'A date';
      rules.push(`${noun} (${dateAnswerFormat(pickerType, config.seconds_precision === true).shape})`);
      break;
    }
    case 'search': {
      const listed = Array.isArray(config.data);
      const multi = config.multiSelectResults === true;
      rules.push(listed ? (multi ? 'Choose one or more from the list' : 'Choose one from the list') : multi ? 'One or more values' : 'Any value');
      break;
    }
  }
  return rules;
}

/** Whether a value counts as given: an empty text or list is no answer (the form then sends nothing). */
export function isGiven(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

function target(field: Field): AnswerTarget | null {
  const type = field.element.type;
  if (!isElementType(type)) return null;
  return { id: field.id, type, props: field.element.config, items: field.element.items };
}

/** Checks a value with the element definition's own answer check (the server's rule). */
export function checkField(field: Field, value: unknown): FieldCheck {
  if (!isGiven(value)) return { errors: [], warnings: [] };
  const t = target(field);
  if (!t) return { errors: [`unknown element type ${field.element.type}`], warnings: [] };
  const result = ELEMENTS[t.type].checkAnswer(value, t);
  return result.ok ? { errors: [], warnings: result.warnings } : { errors: result.issues.map((i) => i.message), warnings: [] };
}

/** The latest saved answer of each field. */
export function savedValues(step: { answers: AnswerView[] }): Map<string, AnswerView> {
  return new Map(step.answers.map((a) => [a.element_id, a]));
}

function nowFor(pickerType: string, seconds: boolean): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`;
  return pickerType === 'time' ? time : pickerType === 'datetime-local' ? `${date}T${time}` : date;
}

/** What each field shows first: its saved answer, else the default its config sets (a default is not an answer). */
export function initialValues(step: { elements: StepElement[]; answers: AnswerView[] }): Record<string, unknown> {
  const saved = savedValues(step);
  const values: Record<string, unknown> = {};
  for (const field of fieldsOf(step)) {
    const answer = saved.get(field.id);
    if (answer) {
      values[field.id] = answer.value;
      continue;
    }
    const { type, config, items } = field.element;
    // A checked item is a default: ticked when items are answered each on its own, else the option chosen first.
    if (answeredByItems(type)) {
      const item = items?.find((i) => i.id === field.id);
      if (item?.checked === true) values[field.id] = true;
    } else if (items !== undefined && isElementType(type) && ELEMENTS[type].items) {
      const preset = items.find((i) => i.checked === true);
      if (preset) values[field.id] = preset.id;
    } else if (controlOf(type) === 'date' && config.default_to_now === true) {
      values[field.id] = nowFor(typeof config.picker_type === 'string' ? config.picker_type : 'date', config.seconds_precision === true);
    }
  }
  return values;
}

/**
 * The answers a save sends: every field whose value differs from its saved answer. A field never answered
 * is sent once it holds something (a check-list item once ticked, or shown ticked by its default).
 */
export function answersToSend(step: { elements: StepElement[]; answers: AnswerView[] }, values: Record<string, unknown>): AnswerInput[] {
  const saved = savedValues(step);
  const out: AnswerInput[] = [];
  for (const field of fieldsOf(step)) {
    const value = values[field.id];
    const before = saved.get(field.id);
    if (before ? JSON.stringify(before.value) === JSON.stringify(value) || value === undefined : !isGiven(value) || value === false) continue;
    out.push({ element_id: field.id, element_type: field.stepType, value });
  }
  return out;
}

/** Field errors a refusal names: ANSWER_INVALID's issues by element, REQUIRED_ANSWERS_MISSING's element ids. */
export function errorsFromRefusal(error: StepError): { byField: Record<string, string[]>; general: string | null } {
  const byField: Record<string, string[]> = {};
  const add = (id: string, message: string) => (byField[id] ??= []).push(message);
  const details = error.details ?? {};
  if (error.code === 'ANSWER_INVALID' && Array.isArray(details.issues)) {
    for (const issue of details.issues as Array<{ element_id?: unknown; message?: unknown }>) {
      if (typeof issue.element_id === 'string') add(issue.element_id, String(issue.message ?? 'is invalid'));
    }
  }
  if (error.code === 'REQUIRED_ANSWERS_MISSING' && Array.isArray(details.element_ids)) {
    for (const id of details.element_ids) add(String(id), 'Required: answer this before continuing');
  }
  return { byField, general: Object.keys(byField).length > 0 ? null : error.message };
}
