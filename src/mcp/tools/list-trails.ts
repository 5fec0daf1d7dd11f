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
    'Lists the trails your token can see, most recently changed first, one page at a time (pass next_cursor back as cursor; null means the last page). Filters combine: flow_id, status (running, waiting_for_person, completed, cancelled), principal_id (trails that principal started, answered on, handed over or advanced; describe_platform gives your own). Errors: FLOW_NOT_FOUND, VALIDATION_ERROR.',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  input: z.strictObject({
    flow_id: recordId('Only trails of this flow.').optional(),
    status: z.enum(TRAIL_STATUSES).optional(),
    principal_id: recordId('Only trails this principal took part in.').optional(),
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
