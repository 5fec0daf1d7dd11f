/**
 * What the bit and connection services answer, as zod schemas: each shape is written once, here, and is both
 * the services' type (z.infer) and the output schema the bit tools declare (operations/bits/bit-schemas.ts,
 * list-bits.ts; authoring-interface.md, "Bit").
 */
import { z } from 'zod';
import { BIT_STATUSES, COMPLEXITIES } from '../../store/enums.js';

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

/** A bit in list_bits: every field but the body. */
export const bitSummaryShape = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  bit_abstract: z.string().nullable(),
  bit_description: z.string().nullable(),
  bit_categories: z.array(z.string()),
  complexity: z.enum(COMPLEXITIES),
  human_required: z.boolean(),
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
