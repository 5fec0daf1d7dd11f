/** dropdown: one choice from a list; bit connections can depend on the option chosen. */
import { z } from 'zod';
import { optionAnswer, type ElementDefinition } from './types.js';

export const dropdown: ElementDefinition = {
  type: 'dropdown',
  stepType: 'Dropdown',
  summary: 'one choice from a list; bit connections can depend on the option chosen',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  when: 'options',
  control: 'select',
  props: z.strictObject({ label: z.string().optional(), required: z.boolean().optional() }),
  urlProps: [],
  items: {
    marker: 'none',
    textField: 'name',
    fields: z.strictObject({ name: z.string().regex(/\S/, 'must not be blank'), value: z.string().optional() }),
    booleanDefaults: [],
  },
  answer: z.string(),
  answerRule: "the chosen option's id",
  checkAnswer: optionAnswer('name'),
};
