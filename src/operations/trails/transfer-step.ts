import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { LIMITS } from '../../limits/index.js';
import { withStepPayload } from './step-alongside.js';
import { defineOperation } from '../operation.js';
import { PROGRESS_TEXT, progressOf, trailId, trailProgress, trailReason } from './trail-schemas.js';

export const transferStepTool = defineOperation({
  name: 'transfer_step',
  title: 'Hand the current step to a person',
  description: `Hands the current step to a person, with a reason: the trail waits (waiting_for_person) until a person answers and advances it. Call it when a step is human_required. ${PROGRESS_TEXT}`,
  flags: { W: true, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/trails/:trail_id/transfer', operationId: 'transferStep' },
  stepForm: {},
  input: z.strictObject({
    trail_id: trailId,
    reason: trailReason.describe('Why a person must take over, for that person.'),
    to: z.string().max(LIMITS.title).optional().describe('"person:<id|email>" or "group:<id|name>"'),
  }),
  output: trailProgress,
  run: async (ctx, input) => {
    const read = await ctx.services.trails.transfer(ctx.actor, input);
    return withStepPayload(ctx, progressOf(read.trail), read);
  },
});
