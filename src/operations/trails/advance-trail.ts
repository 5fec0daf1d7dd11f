import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { withStepPayload } from './step-alongside.js';
import { defineOperation, errorCode } from '../operation.js';
import { recordId } from '../common-schemas.js';
import { movedOf, trailId, trailMoved } from './trail-schemas.js';

/** advance_trail's input, which the step form's advance_step takes too (trails/app-operations.ts). */
export const advanceTrailInput = z.strictObject({
  trail_id: trailId,
  connection_id: recordId('One of current_step.connections_available.').optional(),
  expected_step_id: recordId('current_step.step_id; a retried call then advances nothing.').optional(),
});

export const advanceTrailTool = defineOperation({
  name: 'advance_trail',
  title: 'Leave the current step',
  description: [
    'Leaves the current step once its required elements are answered, by connection_id or else the only available connection',
    '(several: refused, listed in details.available_connections; none: the trail completes).',
    `Only a person's token may advance a human_required or handed-over step (${errorCode('HUMAN_REQUIRED')}: use transfer_step). Answers the new current step (null once completed).`,
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/trails/:trail_id/advance', operationId: 'advanceTrail' },
  stepForm: { elicit: movedOf },
  input: advanceTrailInput,
  output: trailMoved,
  run: async (ctx, input) => {
    const read = await ctx.services.trails.advance(ctx.actor, input, 'markdown');
    return withStepPayload(ctx, movedOf(read.trail), read);
  },
});
