import { z } from 'zod';
import { defineTool } from '../tool.js';
import { connectionWritten } from './bit-schemas.js';
import { lastModifiedIgnored, recordId } from './common-schemas.js';

export const removeConnectionTool = defineTool({
  name: 'remove_connection',
  title: 'Remove a connection',
  description:
    'Deletes a connection: its line leaves the source\'s body and its mirror row goes, atomically; the source\'s last_modified advances and the remaining connections close up their sort_order. Not idempotent: a removed connection is CONNECTION_NOT_FOUND.',
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({ connection_id: recordId('The connection id (get_bit lists them).'), source_bit_last_modified_date_time_utc: lastModifiedIgnored }),
  output: connectionWritten,
  run: ({ actor, services }, input) => services.connections.remove(actor, input),
});
