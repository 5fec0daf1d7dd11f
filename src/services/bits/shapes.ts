/**
 * What the bit and connection services answer, as zod schemas: each shape is written once, here, and is both
 * the services' type (z.infer) and the output schema the bit tools declare (operations/bits/bit-schemas.ts,
 * list-bits.ts; authoring-interface.md, "Bit").
 */
import { z } from 'zod';
import { connectionConditionShape } from '../../content/index.js';
import { BIT_STATUSES, COMPLEXITIES } from '../../store/enums.js';
import { referenceLinkShape } from '../references/shapes.js';

export const bitWrittenShape = z.object({
  bit_id: z.string(),
  last_modified_date_time_utc: z.string(),
  minted_node_ids: z.record(z.string(), z.string()),
  removed_node_ids: z.array(z.string()),
});
export type BitWriteResult = z.infer<typeof bitWrittenShape>;

export const connectionWrittenShape = z.object({
  connection_id: z.string(),
  source_bit_id: z.string(),
  source_bit_last_modified_date_time_utc: z.string(),
  target_bit_id: z.string(),
});
export type ConnectionResult = z.infer<typeof connectionWrittenShape>;

/**
 * A connection's condition, as the body construct defines it (content's bit-connection.ts): options of a dropdown
 * or radio-button, or a check-list item's state. The body syntax writes it `when=` (authoring-interface.md, Body
 * syntax rule 4) and get_bit keeps that name inside the node's `params`; every view of a connection (get_flow's
 * graph, a step's connections_available) and every internal shape calls it `condition`.
 */
export const conditionShape = connectionConditionShape;
export type Condition = z.infer<typeof conditionShape>;

/**
 * A stored connection: its mirror row (id, target, place among the source's connections) with what its body node
 * adds (label, preview flags, condition). The one internal form of a connection: a step's snapshot keeps these, the
 * flow graph and the step's available connections are views of it with the target's title.
 */
export const connectionShape = z.object({
  connection_id: z.string(),
  target_bit_id: z.string(),
  sort_order: z.number().int(),
  label: z.string().nullable(),
  /** The preview flags of the connection's body node (`preview: false`, …), as stored. */
  params: z.record(z.string(), z.boolean()),
  /** Available only when this option is chosen or this check-list item is (un)checked; null = always. */
  condition: conditionShape.nullable(),
});
export type Connection = z.infer<typeof connectionShape>;

/** A bit in list_bits: every field but the body. */
export const bitSummaryShape = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  bit_abstract: z.string().nullable(),
  bit_description: z.string().nullable(),
  bit_categories: z.array(z.string()),
  complexity: z.enum(COMPLEXITIES),
  human_required: z.boolean(),
  assignee: z.string().nullable(),
  expected_duration: z.string().nullable(),
  scope_id: z.string().nullable(),
  status: z.enum(BIT_STATUSES),
  created_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
});
export type BitSummary = z.infer<typeof bitSummaryShape>;

/** An archived bit set active again (REST only: authoring-interface.md, "States and transitions"). */
export const restoredBitShape = z.object({
  bit_id: z.string(),
  status: z.literal('active'),
  last_modified_date_time_utc: z.string(),
  was_already_active: z.boolean().describe('true when the bit was active already: nothing changed.'),
});
export type RestoredBit = z.infer<typeof restoredBitShape>;

/** A bit's head, the fields every view of a bit row starts from (bits/view.ts bitHead). */
export type BitHead = Pick<BitSummary, 'bit_id' | 'bit_title' | 'status' | 'human_required'>;

/**
 * get_bit's answer (authoring-interface.md, "Bit"; CONTRACT.md, get_bit): the bit's fields, its body as markdown
 * or Slate nodes, the elements, connections and reference links it holds. The connection keeps its body node's
 * `params` as get_bit has always shown them (the condition as `params.when`, the body syntax's word).
 */
export const bitViewShape = z
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
      connectionShape.pick({ connection_id: true, target_bit_id: true }).extend({
        target_bit_title: z.string().nullable(),
        sort_order: z.number(),
        label: z.string().nullable(),
        params: z.object({
          when: conditionShape.optional(),
          preview: z.literal(false).optional(),
          description: z.literal(false).optional(),
          categories: z.literal(false).optional(),
          readingTime: z.literal(false).optional(),
        }),
      }),
    ),
    references: z.array(referenceLinkShape.extend({ position: z.number() })),
    created_date_time_utc: z.string(),
    last_modified_date_time_utc: z.string(),
  })
  .passthrough();
/**
 * Who does the bit's step, by name too, and how long it should take (issue 27): in get_bit's answer, outside its
 * declared (passthrough) output schema, which tools/list's budget could not grow by their 50 tokens.
 */
export const bitAssignmentShape = z.object({ assignee: z.string().nullable(), assignee_name: z.string().nullable(), expected_duration: z.string().nullable() });
export type BitView = z.infer<typeof bitViewShape> & z.infer<typeof bitAssignmentShape>;
