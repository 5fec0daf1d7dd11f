import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { recordId, uuid } from '../common-schemas.js';
import { flowCategories, flowDescription, flowTitle, flowWritten, priority, trailContextSchema } from './flow-schemas.js';

export const createFlowTool = defineOperation({
  name: 'create_flow',
  title: 'Create a flow',
  description:
    'Creates a flow (a workflow template) that starts at start_bit_id; it is active, with review_status "pending".',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    flow_title: flowTitle,
    start_bit_id: recordId('An active bit in the flow\'s scope.'),
    flow_description: flowDescription.optional(),
    flow_categories: flowCategories.optional(),
    priority: priority.optional().describe('Default medium.'),
    scope_id: uuid.nullable().optional().describe('Omitted or null: account level.'),
    trail_context_schema: trailContextSchema.optional(),
  }),
  output: flowWritten,
  run: ({ actor, services }, input) => services.flows.create(actor, input),
});
