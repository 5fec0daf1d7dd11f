import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineTool } from '../tool.js';
import { PROGRESS_TEXT, progressOf, trailId, trailProgress, trailReason } from './trail-schemas.js';

export const transferStepTool = defineTool({
  name: 'transfer_step',
  title: 'Hand the current step to a person',
  description: `Hands the current step (a human_required one, or any other) to a person, with a reason: the trail waits for a person (status waiting_for_person), and only a person's token may then answer and advance it. ${PROGRESS_TEXT} Errors: TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING, VALIDATION_ERROR.`,
  flags: { W: true, D: false, I: true },
  access: RUN_ACCESS,
  input: z.strictObject({
    trail_id: trailId,
    reason: trailReason.describe('Why a person must take over, for that person (at most 1024 characters).'),
  }),
  output: trailProgress,
  run: async ({ actor, services }, input) => progressOf(await services.trails.transfer(actor, input)),
});
