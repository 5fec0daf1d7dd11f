import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { uuid } from '../common-schemas.js';
import { pageInput } from '../flows/flow-schemas.js';
import { LIMITS } from '../../limits/index.js';
import { bitSummaryShape } from '../../services/bits/shapes.js';

export const listBitsTool = defineOperation({
  name: 'list_bits',
  title: 'List bits',
  description:
    'Lists the bits you can see, without bodies, most recently changed first; filters combine.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  // The web app's Activity page names the bits of the changes it lists by their titles.
  rest: { method: 'get', path: '/bits', operationId: 'listBits' },
  input: z.strictObject({
    scope_id: uuid.nullable().optional().describe('null: account level only; omitted: all.'),
    status: z.enum(['active', 'archived', 'any']).optional().describe('Default active.'),
    category: z.string().optional().describe('Exact match.'),
    query: z.string().max(LIMITS.listQueryLength).optional().describe('In title, abstract or description; any case.'),
    ...pageInput,
  }),
  output: z.object({
    bits: z.array(bitSummaryShape),
    next_cursor: z.string().nullable(),
  }),
  run: ({ actor, services }, input) => services.bitList.list(actor, input),
});
