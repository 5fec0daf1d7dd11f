import { z } from 'zod';
import { RUN_ACCESS } from '../../services/actor.js';
import { defineOperation } from '../operation.js';
import { recordId } from '../common-schemas.js';
import { pageInput } from '../flows/flow-schemas.js';
import { TRAIL_STATUSES, trailPage } from './trail-schemas.js';

export const listTrailsTool = defineOperation({
  name: 'list_trails',
  title: 'List trails',
  description:
    'Lists the trails you can see, most recently changed first; filters combine.',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/trails', operationId: 'listTrails' },
  input: z.strictObject({
    flow_id: recordId().optional(),
    status: z.enum(TRAIL_STATUSES).optional(),
    principal_id: recordId('Trails it started or acted on.').optional(),
    include_archived: z.boolean().optional().describe('Also finished trails archived by age.'),
    ...pageInput,
  }),
  output: trailPage,
  run: ({ actor, services }, input) => services.trails.list(actor, input),
});
