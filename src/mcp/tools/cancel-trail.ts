import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineTool } from '../tool.js';
import { PROGRESS_TEXT, progressOf, trailId, trailProgress, trailReason } from './trail-schemas.js';

export const cancelTrailTool = defineTool({
  name: 'cancel_trail',
  title: 'Cancel a trail',
  description: [
    'Ends a running or waiting trail for good: status cancelled, nothing more can be answered or advanced on it (start a new trail instead).',
    'The current step is left by you, and the step\'s history keeps who cancelled, when and the reason.',
    'Any token that may run the trail may cancel it, a human_required step included. Not idempotent: a second call answers TRAIL_NOT_RUNNING and changes nothing.',
    PROGRESS_TEXT,
    'Errors: TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING (already completed or cancelled), VALIDATION_ERROR.',
  ].join(' '),
  flags: { W: true, D: true, I: false },
  access: RUN_ACCESS,
  input: z.strictObject({
    trail_id: trailId,
    reason: trailReason
      .optional()
      .describe('Why the trail is cancelled, kept in its history (at most 1024 characters).'),
  }),
  output: trailProgress,
  run: async ({ actor, services }, input) => progressOf(await services.trails.cancel(actor, input)),
});
