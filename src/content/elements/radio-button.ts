/** radio-button: one choice from a group shown together; bit connections can depend on the option chosen. */
import { z } from 'zod';
import { optionAnswer, type ElementDefinition } from './types.js';

export const radioButton: ElementDefinition = {
  type: 'radio-button',
  stepType: 'RadioButton',
  summary: 'one choice from a group shown together; bit connections can depend on the option chosen',
  hasLabel: true,
  placement: 'block',
  answered: 'element',
  when: 'options',
  control: 'radio',
  props: z.strictObject({ label: z.string().optional(), required: z.boolean().optional() }),
  urlProps: [],
  items: {
    marker: 'radio',
    textField: 'text',
    fields: z.strictObject({ checked: z.boolean().optional(), text: z.string().regex(/\S/, 'must not be blank') }),
    booleanDefaults: ['checked'],
    syntaxNotes: '`- (x)` = the default choice',
    // "(x)" marks the default choice: a group has at most one.
    check: (items) =>
      items.filter((i) => i.checked === true).length > 1
        ? [{ path: 'items', message: 'at most one radio-button item can be checked (the default choice)' }]
        : [],
  },
  answer: z.string(),
  answerRule: "the chosen option's id",
  checkAnswer: optionAnswer('text'),
};
