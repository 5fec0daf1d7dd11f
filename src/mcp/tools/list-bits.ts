import { z } from 'zod';
import { defineTool } from '../tool.js';
import { uuid } from './common-schemas.js';
import { pageInput } from './flow-schemas.js';
import { LIMITS } from '../../content/limits.js';
import { BIT_STATUSES, COMPLEXITIES } from '../../store/enums.js';

export const listBitsTool = defineTool({
  name: 'list_bits',
  title: 'List bits',
  description:
    'Lists the bits you can see, without bodies, most recently changed first; filters combine.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    scope_id: uuid.nullable().optional().describe('null: account level only; omitted: all.'),
    status: z.enum(['active', 'archived', 'any']).optional().describe('Default active.'),
    category: z.string().optional().describe('Exact match.'),
    query: z.string().max(LIMITS.listQueryLength).optional().describe('In title, abstract or description; any case.'),
    ...pageInput,
  }),
  output: z.object({
    bits: z.array(
      z.object({
        bit_id: z.string(),
        bit_title: z.string(),
        bit_abstract: z.string().nullable(),
        bit_description: z.string().nullable(),
        bit_categories: z.array(z.string()),
        complexity: z.enum(COMPLEXITIES),
        human_required: z.boolean(),
        scope_id: z.string().nullable(),
        status: z.enum(BIT_STATUSES),
        created_date_time_utc: z.string(),
        last_modified_date_time_utc: z.string(),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  run: ({ actor, services }, input) => services.bitList.list(actor, input),
});
