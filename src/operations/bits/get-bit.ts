import { z } from 'zod';
import { BIT_STATUSES } from '../../store/enums.js';
import { defineOperation } from '../operation.js';
import { conditionSchema } from '../trails/answer-schemas.js';
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
  output: z
    .object({
      bit_id: z.string(),
      bit_title: z.string(),
      bit_abstract: z.string().nullable(),
      bit_description: z.string().nullable(),
      content_format: z.enum(['markdown', 'slate']),
      bit_body: z.union([z.string(), z.array(z.unknown().meta({ type: 'object', additionalProperties: true }))]),
      bit_categories: z.array(z.string()),
      complexity: z.string(),
      human_required: z.boolean(),
      scope_id: z.string().nullable(),
      status: z.enum(BIT_STATUSES),
      elements: z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          step_type: z.string().nullable(),
          props: z.record(z.string(), z.unknown()),
          items: z.array(z.object({ id: z.string() }).passthrough()).optional(),
          required: z.boolean(),
        }),
      ),
      connections: z.array(
        z.object({
          connection_id: z.string(),
          target_bit_id: z.string(),
          target_bit_title: z.string().nullable(),
          sort_order: z.number(),
          label: z.string().nullable(),
          params: z.object({ when: conditionSchema.optional(), preview: z.literal(false).optional(), description: z.literal(false).optional(), categories: z.literal(false).optional(), readingTime: z.literal(false).optional() }),
        }),
      ),
      references: z.array(
        z.object({ bit_reference_id: z.string(), reference_id: z.string(), display_label: z.string().nullable(), label: z.string(), position: z.number() }),
      ),
      created_date_time_utc: z.string(),
      last_modified_date_time_utc: z.string(),
    })
    .passthrough(),
  run: ({ actor, services }, input) => services.bits.get(actor, input),
});
