import { z } from 'zod';
import { brand } from '../../config.js';
import { restoredBitShape } from '../../services/bits/shapes.js';
import { defineOperation } from '../operation.js';
import { bitId } from './bit-schemas.js';

/** Restoring an archived bit: REST only (authoring-interface.md, "States and transitions"; CONTRACT.md, "REST"). */
export const restoreBitOperation = defineOperation({
  name: 'restore_bit',
  title: 'Restore an archived bit',
  description: `Sets an archived bit active again and advances its last_modified_date_time_utc. The connections the archive cleared are not restored. Needs the capability ${brand}.author and permission Edit. Restoring an active bit changes nothing.`,
  flags: { W: true, D: false, I: true },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'post', path: '/bits/:bit_id/restore', operationId: 'restoreBit' },
  mcp: false,
  input: z.strictObject({ bit_id: bitId }),
  output: restoredBitShape,
  run: ({ actor, services }, input) => services.bitRestore.restore(actor, input),
});
