/**
 * A step's element as the questions of a flat form (the profile MCP form elicitation renders: a string, a
 * choice, a date, a tick), derived from its definition: a tick per item where items are answered, one choice
 * among the options where a connection can depend on the option, else the definition's own formQuestion.
 */
import { ELEMENTS } from './index.js';
import type { ElementType, FormQuestion } from './types.js';

export interface FormSource {
  id: string;
  props: Record<string, unknown>;
  items?: ReadonlyArray<{ id: string; [field: string]: unknown }>;
  required: boolean;
}

/** The questions, [] for an element that records nothing, or null when the element has no form in the profile. */
export function formQuestions(type: ElementType, element: FormSource, title: string): FormQuestion[] | null {
  const def = ELEMENTS[type];
  if (def.stepType === null) return [];
  const items = element.items ?? [];
  const textOf = (item: { id: string; [field: string]: unknown }) => String(item[def.items?.textField ?? 'text'] ?? item.id);
  if (def.answered === 'items') return items.map((item) => ({ id: item.id, kind: 'tick', schema: { type: 'boolean', title: textOf(item) }, required: item.required === true }));
  if (def.when === 'options') {
    return [{ id: element.id, kind: 'choices', schema: { type: 'string', title, oneOf: items.map((item) => ({ const: item.id, title: textOf(item) })) }, required: element.required }];
  }
  const question = def.formQuestion?.(element.props, title);
  return question ? [{ id: element.id, required: element.required, ...question }] : null;
}
