import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { LIMITS } from '../../limits/index.js';
import { withStepPayload } from './step-alongside.js';
import { defineOperation } from '../operation.js';
import { recordId } from '../common-schemas.js';
import { STEP_PAYLOAD_TEXT, trailView } from './trail-schemas.js';

export const startTrailTool = defineOperation({
  name: 'start_trail',
  title: 'Start a trail',
  description: `Starts a run (trail) of an active flow; trail_context must fit the flow's trail_context_schema. ${STEP_PAYLOAD_TEXT}`,
  flags: { W: true, D: false, I: false },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/trails', operationId: 'startTrail' },
  stepForm: { elicit: (view) => view },
  input: z.strictObject({
    flow_id: recordId(),
    trail_context: z.record(z.string(), z.unknown()).optional().describe('Default {}.'),
    trail_title: z.string().max(LIMITS.title).optional().describe('A name for this run.'),
    version: z.enum(['current', 'approved']).optional().describe('"approved": run the bits as last approved, whatever is edited later. Default "current".'),
    due_date_time_utc: z.string().optional().describe('Deadline (ISO date-time).'),
  }),
  output: trailView,
  run: async (ctx, input) => {
    const read = await ctx.services.trails.start(ctx.actor, input, 'markdown');
    return withStepPayload(ctx, read.trail, read);
  },
});
