import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { defineOperation } from '../operation.js';
import { bitId, connectionWritten } from './bit-schemas.js';
import { lastModifiedIgnored } from '../common-schemas.js';

export const connectBitsTool = defineOperation({
  name: 'connect_bits',
  title: 'Connect two bits',
  description:
    `Adds a connection from source to target: a line at the end of the source's body. Both bits active and in the same scope; at most ${LIMITS.outgoingConnections} outgoing per source.`,
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    source_bit_id: bitId,
    target_bit_id: bitId,
    sort_order: z.number().int().min(0).optional().describe('Omit, or the source\'s outgoing count (connections append).'),
    source_bit_last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: connectionWritten,
  run: ({ actor, services }, input) => services.connections.connect(actor, input),
});
