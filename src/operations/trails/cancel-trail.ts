import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineOperation, errorCode } from '../operation.js';
import { PROGRESS_TEXT, progressOf, trailId, trailProgress, trailReason } from './trail-schemas.js';

export const cancelTrailTool = defineOperation({
  name: 'cancel_trail',
  title: 'Cancel a trail',
  description: `Ends a running or waiting trail for good (status cancelled); its history keeps who cancelled, when and why. Whoever may run the trail may cancel it. A second call is ${errorCode('TRAIL_NOT_RUNNING')}. ${PROGRESS_TEXT}`,
  flags: { W: true, D: true, I: false },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/trails/:trail_id/cancel', operationId: 'cancelTrail' },
  input: z.strictObject({
    trail_id: trailId,
    reason: trailReason.optional().describe('Why; kept in the history.'),
  }),
  output: trailProgress,
  run: async ({ actor, services }, input) => progressOf((await services.trails.cancel(actor, input)).trail),
});
