/** link-block: a link shown as a card; opening it is recorded as clicked. */
import { z } from 'zod';
import { checkLinkAnswer, linkAnswer, type ElementDefinition } from './types.js';

export const linkBlock: ElementDefinition = {
  type: 'link-block',
  stepType: 'LinkBlock',
  summary: 'link shown as a card with title, description and image; opening it is recorded as clicked',
  hasLabel: false,
  placement: 'block',
  answered: 'element',
  control: 'link-card',
  props: z.strictObject({
    bitId: z.string().optional(),
    custom_description: z.string().optional(),
    custom_title: z.string().optional(),
    is_no_description: z.boolean().optional(),
    is_no_icon: z.boolean().optional(),
    is_no_image: z.boolean().optional(),
    is_no_link: z.boolean().optional(),
    url: z.string().optional(),
  }),
  urlProps: ['url'],
  answer: linkAnswer,
  answerRule: "{clicked, url}: url equal to the element's url (the empty string when it has none)",
  checkAnswer: checkLinkAnswer,
};
