/**
 * link-inline: a link inside a sentence whose click is recorded. In a body it is written like a link,
 * `[text](url "waymark-node:<key>")`; its url can also be changed on a kept anchor.
 */
import { z } from 'zod';
import { checkLinkAnswer, linkAnswer, type ElementDefinition } from './types.js';

export const linkInline: ElementDefinition = {
  type: 'link-inline',
  stepType: 'LinkInline',
  summary: 'link inside a sentence; its click is recorded',
  hasLabel: false,
  placement: 'inline',
  answered: 'element',
  control: 'link',
  props: z.strictObject({ url: z.string() }),
  urlProps: ['url'],
  answer: linkAnswer,
  answerRule: "{clicked, url}: url equal to the element's url",
  checkAnswer: checkLinkAnswer,
};
