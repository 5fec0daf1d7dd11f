import { z } from 'zod';
import { defineOperation, errorCode } from '../operation.js';
import { connectionWritten } from './bit-schemas.js';
import { lastModifiedIgnored, recordId } from '../common-schemas.js';

export const removeConnectionTool = defineOperation({
  name: 'remove_connection',
  title: 'Remove a connection',
  description:
    `Deletes a connection and its line in the source's body; the others close up their sort_order. A second call is ${errorCode('CONNECTION_NOT_FOUND')}.`,
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({ connection_id: recordId(), source_bit_last_modified_date_time_utc: lastModifiedIgnored }),
  output: connectionWritten,
  run: ({ actor, services }, input) => services.connections.remove(actor, input),
});
