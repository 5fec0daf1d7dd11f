import { z } from 'zod';
import { defineTool } from '../tool.js';
import { bitId } from './bit-schemas.js';
import { lastModifiedIgnored } from './common-schemas.js';

export const archiveBitTool = defineTool({
  name: 'archive_bit',
  title: 'Archive a bit',
  description:
    'Archives a bit and clears every incoming and outgoing connection (bodies and rows). Refused with BIT_IS_ACTIVE_FLOW_START (details.flow_ids) while the bit is the start bit of an active flow: deactivate or repoint those flows first. A second call answers was_already_archived: true and changes nothing. Restoring is REST only: POST /api/v1/bits/{bit_id}/restore. Errors: BIT_NOT_FOUND, BIT_IS_ACTIVE_FLOW_START.',
  flags: { W: true, D: true, I: true },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({ bit_id: bitId, last_modified_date_time_utc: lastModifiedIgnored }),
  output: z.object({ bit_id: z.string(), last_modified_date_time_utc: z.string(), was_already_archived: z.boolean() }),
  run: ({ actor, services }, input) => services.bits.archive(actor, input),
});
