import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineTool } from '../tool.js';
import { STEP_PAYLOAD_TEXT, trailId, trailView } from './trail-schemas.js';

export const getTrailTool = defineTool({
  name: 'get_trail',
  title: 'Get a trail',
  description: `Reads a trail and its current step. ${STEP_PAYLOAD_TEXT} Errors: TRAIL_NOT_FOUND.`,
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  input: z.strictObject({ trail_id: trailId }),
  output: trailView,
  run: ({ actor, services }, input) => services.trails.get(actor, input),
});
