import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { withStepPayload } from './step-alongside.js';
import { defineOperation } from '../operation.js';
import { trailId } from './trail-schemas.js';
import { commentedTrailShape } from '../../services/trails/commented-trail.js';

export const getTrailTool = defineOperation({
  name: 'get_trail',
  title: 'Get a trail',
  description: 'Reads a trail: its current step (with comments; null once ended) and history.',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/trails/:trail_id', operationId: 'getTrail' },
  stepForm: { elicit: (view, { actor, services }) => services.comments.onTrail(actor, view) },
  input: z.strictObject({ trail_id: trailId }),
  output: commentedTrailShape,
  run: async (ctx, input) => {
    const read = await ctx.services.trails.get(ctx.actor, input, 'markdown');
    return withStepPayload(ctx, await ctx.services.comments.onTrail(ctx.actor, read.trail), read);
  },
});
