import { z } from 'zod';
import { bitViewShape } from '../../services/bits/shapes.js';
import { defineOperation } from '../operation.js';
import { bitId } from './bit-schemas.js';

export const getBitTool = defineOperation({
  name: 'get_bit',
  title: 'Get a bit',
  description:
    'Reads a bit: bit_body as markdown with ids in anchors, ready to edit and write back with update_bit (or as Slate), and its elements, connections and references.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/bits/:bit_id', operationId: 'getBit' },
  input: z.strictObject({ bit_id: bitId, format: z.enum(['markdown', 'slate']).optional().describe('Default markdown.') }),
  output: bitViewShape,
  run: ({ actor, services }, input) => services.bits.get(actor, input),
});
