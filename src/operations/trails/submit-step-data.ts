import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineOperation, errorCode } from '../operation.js';
import { answerInnerSchema } from './answer-schemas.js';
import { nodeRef } from '../common-schemas.js';
import { PROGRESS_TEXT, progressOf, trailId, trailSubmitted } from './trail-schemas.js';
import { LIMITS } from '../../limits/index.js';
import type { SubmittedAnswer } from '../../services/trails/step.js';

/** submit_step_data's input, which the step form's save_step takes too (trails/app-operations.ts). */
export const submitStepDataInput = z.strictObject({
  trail_id: trailId,
  data: z
    .array(
      z.strictObject({
        element_id: nodeRef.min(1).describe('For CheckListItem, the item\'s own id.'),
        element_type: z.string().min(1).optional().describe('Optional: the step type name, e.g. TextArea; when given it must match.'),
        value: z.strictObject({ value: answerInnerSchema.refine((v) => v !== undefined, { message: 'value.value is required' }) }),
      }),
    )
    .min(1)
    .max(LIMITS.answersPerCall),
});

/** The answers as the trail service takes them: each inner value unwrapped from the submitted `{value: <inner>}`. */
export function answersOf(data: Array<{ element_id: string; element_type?: string; value: { value?: unknown } }>): SubmittedAnswer[] {
  return data.map((d) => ({ element_id: d.element_id, element_type: d.element_type, value: d.value.value }));
}

export const submitStepDataTool = defineOperation({
  name: 'submit_step_data',
  title: 'Answer elements of the current step',
  description: [
    'Records answers to the current step\'s elements. The inner value of each type: describe_platform element_types[].answer_rule (e.g. the text, true for a checked item, the chosen option\'s id).',
    'One bad answer refuses the call, listing every problem; a later answer replaces an earlier one.',
    `Only a person's token may answer a human_required or handed-over step (${errorCode('HUMAN_REQUIRED')}: use transfer_step). ${PROGRESS_TEXT}`,
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/trails/:trail_id/answers', operationId: 'submitStepData' },
  input: submitStepDataInput,
  output: trailSubmitted,
  run: async ({ actor, services }, input) => {
    const read = await services.trails.submit(actor, { trail_id: input.trail_id, data: answersOf(input.data) });
    return { ...progressOf(read.trail), warnings: read.warnings };
  },
});
