import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { withStepPayload } from './step-alongside.js';
import { defineOperation } from '../operation.js';
import { trailId, trailView } from './trail-schemas.js';

export const getTrailTool = defineOperation({
  name: 'get_trail',
  title: 'Get a trail',
  description: 'Reads a trail: its current step (null once ended) and its history.',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/trails/:trail_id', operationId: 'getTrail' },
  stepForm: { elicit: (view) => view },
  input: z.strictObject({ trail_id: trailId }),
  output: trailView,
  run: async (ctx, input) => {
    const read = await ctx.services.trails.get(ctx.actor, input, 'markdown');
    return withStepPayload(ctx, read.trail, read);
  },
});
