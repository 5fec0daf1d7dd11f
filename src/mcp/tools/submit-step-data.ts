import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { ELEMENT_TYPES, ELEMENTS } from '../../content/elements/index.js';
import { defineTool } from '../tool.js';
import { answerInnerSchema } from './answer-schemas.js';
import { nodeRef } from './common-schemas.js';
import { PROGRESS_TEXT, progressOf, trailId, trailProgress } from './trail-schemas.js';
import { LIMITS } from '../../content/limits.js';

/** Each step type with its answer rule, from the element definitions (one home for each rule). */
const answerRules = ELEMENT_TYPES.filter((t) => ELEMENTS[t].stepType !== null)
  .map((t) => `${ELEMENTS[t].stepType}: ${ELEMENTS[t].answerRule}`)
  .join('; ');

export const submitStepDataTool = defineTool({
  name: 'submit_step_data',
  title: 'Answer elements of the current step',
  description: [
    'Records answers to the current step\'s elements. Each entry names element_id and element_type (the step type name get_trail lists) and sends the value as {value: <inner>}.',
    `Inner values: ${answerRules}. An iframe records nothing.`,
    'Every answer of the call is checked before any is stored: one bad answer refuses the call, listing every problem. A later answer replaces an earlier one (history keeps both).',
    'On a human_required step, or one handed to a person, only a person\'s token may answer. Also answers warnings[] (text-area validationMode warning).',
    PROGRESS_TEXT,
    'Errors: TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING, HUMAN_REQUIRED (use transfer_step), ELEMENT_NOT_FOUND, ANSWER_INVALID (details.issues), VALIDATION_ERROR.',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: RUN_ACCESS,
  input: z.strictObject({
    trail_id: trailId,
    data: z
      .array(
        z.strictObject({
          element_id: nodeRef.min(1).describe('The element id (a check-list item\'s own id for CheckListItem).'),
          element_type: z.string().min(1).describe('The step type name, e.g. TextArea, CheckListItem, Dropdown.'),
          value: z.strictObject({ value: answerInnerSchema.refine((v) => v !== undefined, { message: 'value.value is required' }) }).describe('The answer as {value: <inner>}.'),
        }),
      )
      .min(1)
      .max(LIMITS.answersPerCall)
      .describe(`1 to ${LIMITS.answersPerCall} answers.`),
  }),
  output: trailProgress.extend({ warnings: z.array(z.object({ element_id: z.string(), warnings: z.array(z.string()) })) }),
  run: async ({ actor, services }, input) => {
    const view = await services.trails.submit(actor, { trail_id: input.trail_id, data: input.data.map((d) => ({ element_id: d.element_id, element_type: d.element_type, value: d.value.value })) });
    return { ...progressOf(view), warnings: view.warnings };
  },
});
