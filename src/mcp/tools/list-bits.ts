import { z } from 'zod';
import { defineTool } from '../tool.js';
import { uuid } from './common-schemas.js';
import { pageInput } from './flow-schemas.js';
import { LIMITS } from '../../content/limits.js';
import { bitSummaryShape } from '../../services/bit-shapes.js';

export const listBitsTool = defineTool({
  name: 'list_bits',
  title: 'List bits',
  description:
    'Lists the bits your token can see (without bodies: get_bit reads one whole), most recently changed first, one page at a time (pass next_cursor back as cursor; null means the last page). Filters combine: scope_id (null = account level only), status (active by default; archived; any), category (exact), query (text in title, abstract or description, case-insensitive). Errors: VALIDATION_ERROR (a bad cursor), SCOPE_NOT_FOUND.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    scope_id: uuid.nullable().optional().describe('Only this scope\'s bits; null: account-level bits only; omitted: every bit you can see.'),
    status: z.enum(['active', 'archived', 'any']).optional().describe('Default active.'),
    category: z.string().optional().describe('Only bits carrying this category (exact match).'),
    query: z.string().max(LIMITS.listQueryLength).optional().describe('Text to find in the title, abstract or description.'),
    ...pageInput,
  }),
  output: z.object({
    bits: z.array(bitSummaryShape),
    next_cursor: z.string().nullable(),
  }),
  run: ({ actor, services }, input) => services.bitList.list(actor, input),
});
