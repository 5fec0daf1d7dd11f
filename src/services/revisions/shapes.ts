/** What get_revision, diff_revisions and restore_revision answer (issue 26), as zod schemas: the services' types and the operations' outputs. */
import { z } from 'zod';
import { EVENT_ACTOR_KINDS } from '../../store/enums.js';
import { bitViewShape } from '../bits/shapes.js';
import { flowViewShape } from '../flows/shapes.js';
import { referenceViewShape } from '../references/shapes.js';
import { REVISED_TYPES } from './state.js';

export const revisedTypeShape = z.enum(REVISED_TYPES);

/** Who made a revision: its event's principal, kind, app and operation (null for the state history began with). */
export const revisionAuthorShape = z
  .object({
    principal_id: z.string().nullable(),
    principal_kind: z.enum(EVENT_ACTOR_KINDS),
    client_name: z.string().nullable(),
    operation: z.string(),
  })
  .nullable();

export const revisionViewShape = z.object({
  resource_type: revisedTypeShape,
  resource_id: z.string(),
  revision: z.number().int(),
  latest_revision: z.number().int(),
  revised_date_time_utc: z.string(),
  changed_by: revisionAuthorShape,
  /** The resource as it was, as get_bit, get_flow or get_reference answer it: the one of its type. */
  bit: bitViewShape.optional(),
  flow: flowViewShape.optional(),
  reference: referenceViewShape.optional(),
});
export type RevisionView = z.infer<typeof revisionViewShape>;

export const fieldChangeShape = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type FieldChange = z.infer<typeof fieldChangeShape>;

export const bodyDiffShape = z.object({
  /** Hunks of the markdown bodies, unified: `@@ -old +new @@`, then lines marked ' ', '-' (removed) or '+' (added). */
  unified: z.string(),
  added_lines: z.number().int().nullable(),
  removed_lines: z.number().int().nullable(),
  /** false when the change is too large to show line by line (unified is cut or empty). */
  shown: z.boolean(),
});
export type BodyDiff = z.infer<typeof bodyDiffShape>;

export const elementChangeShape = z.object({ element_id: z.string(), element_type: z.string(), label: z.string().nullable(), changed: z.array(z.string()).optional() });
export type ElementChange = z.infer<typeof elementChangeShape>;

export const connectionChangeShape = z.object({ connection_id: z.string(), target_bit_id: z.string(), label: z.string().nullable(), changed: z.array(z.string()).optional() });
export type ConnectionChange = z.infer<typeof connectionChangeShape>;

const addedRemovedChanged = <T extends z.ZodType>(item: T) => z.object({ added: z.array(item), removed: z.array(item), changed: z.array(item) });

export const bitChangesShape = z.object({
  fields: z.array(fieldChangeShape),
  body: bodyDiffShape.nullable(),
  elements: addedRemovedChanged(elementChangeShape),
  connections: addedRemovedChanged(connectionChangeShape),
});
export type BitChanges = z.infer<typeof bitChangesShape>;

/** A bit of a flow's graph that the flow's change added, removed or changed, with its own diff. */
export const flowBitChangeShape = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  from_revision: z.number().int().nullable(),
  to_revision: z.number().int().nullable(),
  diff: bitChangesShape.optional(),
});
export type FlowBitChange = z.infer<typeof flowBitChangeShape>;

export const graphConnectionChangeShape = z.object({ connection_id: z.string(), source_bit_id: z.string(), target_bit_id: z.string(), label: z.string().nullable() });

export const revisionDiffShape = bitChangesShape.extend({
  resource_type: revisedTypeShape,
  resource_id: z.string(),
  from_revision: z.number().int(),
  to_revision: z.number().int(),
  /** A flow's diff from its approved version: the version compared. */
  from_version: z.number().int().nullable().optional(),
  /** A flow's graph, where both sides have one (an approved version, or the flow now): bits and connections. */
  graph: z
    .object({
      bits: z.array(flowBitChangeShape),
      connections: z.object({ added: z.array(graphConnectionChangeShape), removed: z.array(graphConnectionChangeShape) }),
    })
    .nullable()
    .optional(),
});
export type RevisionDiff = z.infer<typeof revisionDiffShape>;

export const restoredRevisionShape = z.object({
  resource_type: revisedTypeShape,
  resource_id: z.string(),
  restored_revision: z.number().int(),
  /** The new revision the restore wrote; equal to the latest when nothing differed (nothing written). */
  revision: z.number().int(),
  last_modified_date_time_utc: z.string(),
  /** What a restore leaves as it is: a bit's reference links, a flow's review status and activity, a reference's archival. */
  not_restored: z.array(z.string()),
});
export type RestoredRevision = z.infer<typeof restoredRevisionShape>;
