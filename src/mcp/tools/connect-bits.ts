import { z } from 'zod';
import { defineTool } from '../tool.js';
import { bitId, connectionWritten } from './bit-schemas.js';
import { lastModifiedIgnored } from './common-schemas.js';

export const connectBitsTool = defineTool({
  name: 'connect_bits',
  title: 'Connect two bits',
  description:
    'Adds one connection from source to target: a line at the end of the source\'s body and a mirror row, in one transaction. Both bits active and in the same scope; at most 20 outgoing per source. sort_order is the source\'s next position (its outgoing count): omit it, or give exactly that. Errors: BIT_NOT_FOUND, BIT_ARCHIVED, SCOPE_MISMATCH, SORT_ORDER_CONFLICT (details.expected_sort_order), CONNECTION_LIMIT_EXCEEDED.',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    source_bit_id: bitId,
    target_bit_id: bitId,
    sort_order: z.number().int().min(0).optional().describe('Must equal the source\'s outgoing count (append-only); omit to append.'),
    source_bit_last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: connectionWritten,
  run: ({ actor, services }, input) => services.connections.connect(actor, input),
});
