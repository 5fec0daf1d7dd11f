/** check-list: a list of items to tick; each item is recorded on the trail as its own CheckListItem. */
import { z } from 'zod';
import { accepted, parseAnswer, type ElementDefinition } from './types.js';

const answer = z.boolean();

export const checkList: ElementDefinition = {
  type: 'check-list',
  stepType: 'CheckListItem',
  summary: 'list of items to tick; each item is recorded on the trail as its own CheckListItem; an item can be required',
  hasLabel: true,
  placement: 'block',
  answered: 'items',
  when: 'item-checked',
  control: 'checklist',
  props: z.strictObject({ label: z.string().optional() }),
  urlProps: [],
  items: {
    marker: 'checkbox',
    textField: 'text',
    fields: z.strictObject({ text: z.string().regex(/\S/, 'must not be blank'), checked: z.boolean().optional(), required: z.boolean().optional() }),
    booleanDefaults: ['checked', 'required'],
    syntaxNotes: '`- [x]` = checked; " *(required)*" is printed for required items and ignored on input',
  },
  answer,
  answerRule: 'true = checked; element_id is the item id (each item is answered on its own)',
  checkAnswer(value) {
    const parsed = parseAnswer(answer, value);
    return parsed.ok ? accepted(parsed.value) : parsed.result;
  },
};
