/** searchable-field: a search box over a provided list of values. */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { accepted, choiceList, integerOrText, refused, type AnswerTarget, type ElementDefinition } from './types.js';

/** The value an answer names for one `data` entry: the string itself, or an object's `value`. */
export function dataValue(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry !== null && typeof entry === 'object') {
    const v = (entry as Record<string, unknown>).value;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  }
  return undefined;
}

/** The values `data` offers, each with the label a person reads (an object entry's `label`), or null without data. */
function allowedValues(element: AnswerTarget): Map<string, string | null> | null {
  const data = element.props.data;
  if (!Array.isArray(data)) return null;
  const values = new Map<string, string | null>();
  for (const entry of data) {
    const v = dataValue(entry);
    const label = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>).label : undefined;
    if (v !== undefined && !values.has(v)) values.set(v, typeof label === 'string' && label !== v ? label : null);
  }
  return values;
}

export const searchableField: ElementDefinition = {
  type: 'searchable-field',
  stepType: 'SearchableField',
  summary: 'search box over a provided list of values',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  control: 'search',
  props: z.strictObject({
    data: z
      .array(z.union([z.string(), z.record(z.string(), z.unknown())], { error: 'each data item must be a string or an object' }))
      .max(LIMITS.searchableFieldData, { error: `at most ${LIMITS.searchableFieldData} items` })
      .optional(),
    label: z.string().optional(),
    length: integerOrText(1, 50).optional(),
    maxResults: integerOrText(1, 100).optional(),
    multiSelectResults: z.boolean().optional(),
    noResultsText: z.string().optional(),
    pagination: z.boolean().optional(),
    placeholderText: z.string().optional(),
    required: z.boolean().optional(),
    searchMode: z.enum(['exact match', 'partial match', 'exact', 'partial']).optional(),
  }),
  urlProps: [],
  answer: z.union([z.string(), z.array(z.string())]),
  answerRule: 'a string from data (for object items, their value); an array of them when multiSelectResults',
  checkAnswer(value, element) {
    const multi = element.props.multiSelectResults === true;
    const values = multi ? value : [value];
    if (multi && !Array.isArray(value)) return refused('must be an array of strings (multiSelectResults is on)');
    if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
      return refused(multi ? 'must be an array of strings' : 'must be a string');
    }
    const allowed = allowedValues(element);
    // Without data there is no list to choose from: any string is a search result the app accepted.
    const outside = allowed ? (values as string[]).filter((v) => !allowed.has(v)) : [];
    if (outside.length > 0) {
      const choices = [...allowed!].map(([id, label]) => ({ id, label }));
      return refused(`${choiceList(outside.map((id) => ({ id })))} ${outside.length === 1 ? 'is' : 'are'} not in the field's data; the values (value "label") are: ${choiceList(choices)}`);
    }
    return accepted(value);
  },
  formQuestion(props, title) {
    const values = Array.isArray(props.data) ? props.data.map(dataValue).filter((v): v is string => v !== undefined) : null;
    if (props.multiSelectResults !== true) return { kind: 'choices', schema: values ? { type: 'string', title, enum: values } : { type: 'string', title } };
    // A list of free-text search results has no form in the profile.
    return values ? { kind: 'choices', schema: { type: 'array', title, items: { type: 'string', enum: values } } } : null;
  },
};
