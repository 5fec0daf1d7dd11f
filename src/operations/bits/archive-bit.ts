import { z } from 'zod';
import { defineOperation, errorCode } from '../operation.js';
import { bitId } from './bit-schemas.js';
import { lastModifiedIgnored } from '../common-schemas.js';

export const archiveBitTool = defineOperation({
  name: 'archive_bit',
  title: 'Archive a bit',
  description:
    `Archives a bit and removes its incoming and outgoing connections. Refused (${errorCode('BIT_IS_ACTIVE_FLOW_START')}) while it starts an active flow. Restore over REST: POST /api/v1/bits/{bit_id}/restore.`,
  flags: { W: true, D: true, I: true },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({ bit_id: bitId, last_modified_date_time_utc: lastModifiedIgnored }),
  output: z.object({ bit_id: z.string(), last_modified_date_time_utc: z.string(), was_already_archived: z.boolean() }),
  run: ({ actor, services }, input) => services.bits.archive(actor, input),
});
