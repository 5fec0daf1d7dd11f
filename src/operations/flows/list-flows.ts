import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { uuid } from '../common-schemas.js';
import { flowView, pageInput, priority, REVIEW_STATUSES } from './flow-schemas.js';
import { LIMITS } from '../../limits/index.js';

export const listFlowsTool = defineOperation({
  name: 'list_flows',
  title: 'List flows',
  description:
    'Lists the flows you can see, most recently changed first; filters combine.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/flows', operationId: 'listFlows' },
  input: z.strictObject({
    scope_id: uuid.nullable().optional().describe('null: account level only; omitted: all.'),
    is_active: z.boolean().optional(),
    review_status: z.enum(REVIEW_STATUSES).optional(),
    priority: priority.optional(),
    category: z.string().optional().describe('Exact match.'),
    query: z.string().max(LIMITS.listQueryLength).optional().describe('In title or description; any case.'),
    ...pageInput,
  }),
  output: z.object({ flows: z.array(flowView), next_cursor: z.string().nullable() }),
  run: ({ actor, services }, input) => services.flows.list(actor, input),
});
