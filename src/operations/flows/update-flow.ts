import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { uuid } from '../common-schemas.js';
import { flowCategoriesReplaced, flowDescription, flowId, flowTitle, flowWritten, lastModifiedIgnored, priority, trailContextSchemaReplaced } from './flow-schemas.js';

export const updateFlowTool = defineOperation({
  name: 'update_flow',
  title: 'Update a flow',
  description:
    'Changes a flow; omitted fields stay. Re-activating needs review_status "approved" (review_flow, by an Admin) and an active start bit; changing start_bit_id or trail_context_schema of an approved flow sets it back to "pending".',
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'post', path: '/flows/:flow_id', operationId: 'updateFlow' },
  input: z.strictObject({
    flow_id: flowId,
    flow_title: flowTitle.optional(),
    flow_description: flowDescription.optional(),
    flow_categories: flowCategoriesReplaced.optional(),
    priority: priority.optional(),
    start_bit_id: uuid.nullable().optional().describe('An active bit in the flow\'s scope; null is refused.'),
    trail_context_schema: trailContextSchemaReplaced.optional(),
    is_active: z.boolean().optional().describe('false deactivates.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: flowWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.flows.update(actor, input),
});
