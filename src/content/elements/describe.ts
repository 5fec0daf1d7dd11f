/** describe_platform's view of the element types, generated from the definitions the server enforces. */
import { z } from 'zod';
import { ELEMENTS, ELEMENT_TYPES } from './index.js';
import { elementLineForm, itemLineForm } from './forms.js';
import type { ElementType } from './types.js';

export interface ElementDescription {
  type: ElementType;
  step_type: string | null;
  summary: string;
  has_label: boolean;
  markdown: string;
  item_markdown?: string;
  allowed_props: string[];
  required_props: string[];
  /** JSON Schema of the props (types, enums, limits). */
  props_schema: Record<string, unknown>;
  /** JSON Schema of one item's fields, besides `id` / `key`. */
  item_schema?: Record<string, unknown>;
  /** JSON Schema of the inner answer value, or null when the element records nothing. */
  answer_schema: Record<string, unknown> | null;
  answer_rule: string;
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

export function describeElement(type: ElementType): ElementDescription {
  const def = ELEMENTS[type];
  const propsSchema = jsonSchema(def.props);
  const itemForm = itemLineForm(def);
  return {
    type,
    step_type: def.stepType,
    summary: def.summary,
    has_label: def.hasLabel,
    markdown: elementLineForm(def),
    ...(itemForm ? { item_markdown: itemForm } : {}),
    allowed_props: Object.keys(def.props.shape).sort(),
    required_props: Array.isArray(propsSchema.required) ? (propsSchema.required as string[]) : [],
    props_schema: propsSchema,
    ...(def.items ? { item_schema: jsonSchema(def.items.fields) } : {}),
    answer_schema: def.answer ? jsonSchema(def.answer) : null,
    answer_rule: def.answerRule,
  };
}

export function describeElements(): ElementDescription[] {
  return ELEMENT_TYPES.map(describeElement);
}
