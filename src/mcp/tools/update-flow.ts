import { z } from 'zod';
import { defineTool } from '../tool.js';
import { uuid } from './common-schemas.js';
import { flowCategories, flowDescription, flowId, flowTitle, flowWritten, lastModifiedIgnored, priority, trailContextSchema } from './flow-schemas.js';

export const updateFlowTool = defineTool({
  name: 'update_flow',
  title: 'Update a flow',
  description: [
    'Changes a flow; omitted fields stay unchanged. flow_title cannot be blanked (VALIDATION_ERROR, 422); flow_description "" clears it;',
    'flow_categories replaces the whole list; start_bit_id must be an active bit in the flow\'s scope and cannot be null (FLOW_START_BIT_INVALID);',
    'is_active false deactivates; is_active true re-activates an inactive flow only when review_status is "approved" (an Admin sets it with review_flow)',
    'and its start bit is active, else FLOW_ACTIVATION_REFUSED with details.reasons. trail_context_schema null removes the schema.',
    'Changing start_bit_id or trail_context_schema of an approved flow sets review_status back to "pending": it needs review_flow again before a re-activation.',
    'Errors: VALIDATION_ERROR, FLOW_NOT_FOUND, FORBIDDEN, FLOW_START_BIT_INVALID, FLOW_ACTIVATION_REFUSED, INVALID_TRAIL_CONTEXT_SCHEMA.',
  ].join(' '),
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    flow_id: flowId,
    flow_title: flowTitle.optional(),
    flow_description: flowDescription.optional(),
    flow_categories: flowCategories.optional(),
    priority: priority.optional(),
    start_bit_id: uuid.nullable().optional().describe('A new start bit: active, in the flow\'s scope. null is refused (FLOW_START_BIT_INVALID).'),
    trail_context_schema: trailContextSchema.optional(),
    is_active: z.boolean().optional().describe('false deactivates; true re-activates (needs review_status "approved" and an active start bit).'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: flowWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.flows.update(actor, input),
});
