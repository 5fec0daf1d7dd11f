/**
 * What the flow services answer, as zod schemas: each shape is written once, here, and is both the services'
 * type (z.infer) and the output schema the flow tools declare (operations/flows/flow-schemas.ts, get-flow.ts) and
 * the web app reads (authoring-interface.md, "Flow").
 */
import { z } from 'zod';
import { BIT_STATUSES, PRIORITIES, REVIEW_STATUSES } from '../../store/enums.js';
import { connectionShape } from '../bits/shapes.js';

export const flowWrittenShape = z.object({ flow_id: z.string(), last_modified_date_time_utc: z.string() });
export type FlowWritten = z.infer<typeof flowWrittenShape>;

export const flowViewShape = z.object({
  flow_id: z.string(),
  flow_title: z.string(),
  flow_description: z.string().nullable(),
  flow_categories: z.array(z.string()),
  priority: z.enum(PRIORITIES),
  scope_id: z.string().nullable(),
  start_bit_id: z.string(),
  trail_context_schema: z.record(z.string(), z.unknown()).nullable(),
  is_active: z.boolean(),
  review_status: z.enum(REVIEW_STATUSES),
  created_by: z.string(),
  created_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
});
export type FlowView = z.infer<typeof flowViewShape>;

/** A connection in the graph: the stored connection with its target's title (null when the target is not visible). */
export const graphConnectionShape = connectionShape.extend({ target_bit_title: z.string().nullable() });
export type GraphConnection = z.infer<typeof graphConnectionShape>;

export const graphBitShape = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  status: z.enum(BIT_STATUSES),
  human_required: z.boolean(),
  /** Steps from the start bit along the shortest path (0 for the start bit); null when unreachable. */
  depth: z.number().int().nullable(),
  connections: z.array(graphConnectionShape),
});
export type GraphBit = z.infer<typeof graphBitShape>;

export const flowGraphViewShape = z.object({
  bits: z.array(graphBitShape),
  unreachable_bit_ids: z.array(z.string()),
  mermaid: z.string().optional(),
});
export type FlowGraphView = z.infer<typeof flowGraphViewShape>;

/** get_flow's answer: the flow, and its graph when asked for. */
/** get_flow: the flow's last approved version, and whether anything changed since (null: never approved). */
export const flowApprovalShape = z.object({
  version: z.number().int(),
  approved_by: z.string().nullable(),
  approved_date_time_utc: z.string(),
  /** The flow's fields, its graph or one of its bits changed since; diff_revisions shows what. */
  changed_since: z.boolean(),
});
export type FlowApproval = z.infer<typeof flowApprovalShape>;

export const flowWithGraphShape = flowViewShape.extend({ approval: flowApprovalShape.nullable().optional(), graph: flowGraphViewShape.optional() });
export type FlowWithGraph = z.infer<typeof flowWithGraphShape>;
