import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineTool } from '../tool.js';
import { recordId } from './common-schemas.js';
import { pageInput } from './flow-schemas.js';
import { TRAIL_STATUSES } from './trail-schemas.js';

export const listTrailsTool = defineTool({
  name: 'list_trails',
  title: 'List trails',
  description:
    'Lists the trails you can see, most recently changed first; filters combine.',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  input: z.strictObject({
    flow_id: recordId().optional(),
    status: z.enum(TRAIL_STATUSES).optional(),
    principal_id: recordId('Trails it started or acted on.').optional(),
    ...pageInput,
  }),
  output: z.object({
    trails: z.array(
      z.object({
        trail_id: z.string(),
        flow_id: z.string(),
        trail_title: z.string().nullable(),
        status: z.enum(TRAIL_STATUSES),
        current_bit_id: z.string().nullable(),
        current_bit_title: z.string().nullable().describe('The current bit\'s title as it is now (get_trail shows the step as the trail entered it).'),
        started_by: z.string(),
        started_date_time_utc: z.string(),
        last_modified_date_time_utc: z.string(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  run: ({ actor, services }, input) => services.trails.list(actor, input),
});
