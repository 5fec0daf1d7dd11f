/** video-external: a video from an external address; watching it is recorded as played. */
import { z } from 'zod';
import { accepted, numberOrText, parseAnswer, urlDisplayOption, type ElementDefinition } from './types.js';

const answer = z.strictObject({ played: z.boolean() });

export const videoExternal: ElementDefinition = {
  type: 'video-external',
  stepType: 'Video',
  summary: 'video from an external address; watching it is recorded as played',
  hasLabel: false,
  placement: 'block',
  answered: 'element',
  control: 'video',
  props: z.strictObject({
    altText: z.string().optional(),
    aspectRatio: z.string().optional(),
    maxWidth: numberOrText().optional(),
    url: z.string(),
    urlDisplayOption: urlDisplayOption.optional(),
  }),
  urlProps: ['url'],
  answer,
  answerRule: '{played}',
  checkAnswer(value) {
    const parsed = parseAnswer(answer, value);
    return parsed.ok ? accepted(parsed.value) : parsed.result;
  },
};
