import { z } from 'zod';
import { defineTool } from '../tool.js';
import { recordId, uuid } from './common-schemas.js';
import { flowCategories, flowDescription, flowTitle, flowWritten, priority, trailContextSchema } from './flow-schemas.js';

export const createFlowTool = defineTool({
  name: 'create_flow',
  title: 'Create a flow',
  description: [
    'Creates a flow (a workflow template) that starts at start_bit_id. The new flow is active, with review_status "pending".',
    'Rules: flow_title non-empty, at most 256 chars; flow_description at most 1024 (empty stores null); flow_categories at most 50 of at most 128 chars;',
    'priority low|medium|high|critical (default medium); scope_id optional (omitted = account level); start_bit_id must be an active bit of your account in the same scope as the flow;',
    'trail_context_schema declares the trail_context fields start_trail must receive (see its field description).',
    'Errors: VALIDATION_ERROR, SCOPE_NOT_FOUND, FORBIDDEN, FLOW_START_BIT_INVALID (details.reason: not_found, archived or scope_mismatch), INVALID_TRAIL_CONTEXT_SCHEMA (details.issues).',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    flow_title: flowTitle,
    start_bit_id: recordId('The entry-point bit: an active bit of your account, in the flow\'s scope.'),
    flow_description: flowDescription.optional(),
    flow_categories: flowCategories.optional(),
    priority: priority.optional().describe('Default medium.'),
    scope_id: uuid.nullable().optional().describe('The scope the flow belongs to; omitted (or null) means account level.'),
    trail_context_schema: trailContextSchema.optional(),
  }),
  output: flowWritten,
  run: ({ actor, services }, input) => services.flows.create(actor, input),
});
