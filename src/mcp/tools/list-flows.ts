import { z } from 'zod';
import { defineTool } from '../tool.js';
import { uuid } from './common-schemas.js';
import { flowView, pageInput, priority, REVIEW_STATUSES } from './flow-schemas.js';
import { LIMITS } from '../../content/limits.js';

export const listFlowsTool = defineTool({
  name: 'list_flows',
  title: 'List flows',
  description:
    'Lists the flows your token can see, most recently changed first, one page at a time (pass next_cursor back as cursor; null means the last page). Filters combine: scope_id (null = account level only), is_active, review_status, priority, category (exact), query (text in title or description, case-insensitive). Errors: VALIDATION_ERROR (a bad cursor), SCOPE_NOT_FOUND.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    scope_id: uuid.nullable().optional().describe('Only this scope\'s flows; null: account-level flows only; omitted: every flow you can see.'),
    is_active: z.boolean().optional(),
    review_status: z.enum(REVIEW_STATUSES).optional(),
    priority: priority.optional(),
    category: z.string().optional().describe('Only flows carrying this category (exact match).'),
    query: z.string().max(LIMITS.listQueryLength).optional().describe('Text to find in the title or description.'),
    ...pageInput,
  }),
  output: z.object({ flows: z.array(flowView), next_cursor: z.string().nullable() }),
  run: ({ actor, services }, input) => services.flows.list(actor, input),
});
