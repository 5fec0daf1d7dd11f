/** iframe: an embedded page; it records nothing and is not a step element. */
import { z } from 'zod';
import { numberOrText, refused, urlDisplayOption, type ElementDefinition } from './types.js';

export const iframe: ElementDefinition = {
  type: 'iframe',
  stepType: null,
  summary: 'embedded page; records nothing and is not a step element',
  hasLabel: false,
  placement: 'block',
  answered: 'element',
  control: 'frame',
  props: z.strictObject({
    height: numberOrText().optional(),
    url: z.string(),
    urlDisplayOption: urlDisplayOption.optional(),
    width: numberOrText().optional(),
  }),
  urlProps: ['url'],
  answer: null,
  answerRule: 'records nothing: an answer naming an iframe is refused',
  checkAnswer() {
    return refused('an iframe records nothing and cannot be answered', 'element_id');
  },
};
