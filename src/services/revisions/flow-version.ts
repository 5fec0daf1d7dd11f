/**
 * A flow version (issue 26): what approving a flow fixes, beside the flow's own revision: the bits its graph
 * reaches from the start bit, each at the revision it had, and the connections between them. A trail started on
 * the approved version runs those bit revisions; get_flow compares it with the flow as it is now.
 */
import { z } from 'zod';
import { latestRevisions } from '../../store/repositories/revisions.repo.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import type { Db, Tx } from '../../store/store.js';
import { buildFlowGraph } from '../flows/graph.js';

const versionGraphShape = z.object({
  start_bit_id: z.string(),
  /** Each reachable bit's revision. */
  bits: z.record(z.string(), z.number().int()),
  /** Each reachable bit's title then, to name what was removed since. */
  titles: z.record(z.string(), z.string()),
  connections: z.array(z.object({ connection_id: z.string(), source_bit_id: z.string(), target_bit_id: z.string(), label: z.string().nullable() })),
});
export type VersionGraph = z.infer<typeof versionGraphShape>;

export function parseVersionGraph(text: string): VersionGraph {
  return versionGraphShape.parse(JSON.parse(text));
}

/** The flow's graph as it is now, with each bit's latest revision. */
export async function currentVersionGraph(q: Db | Tx, dialect: StoreDialect, accountId: string, startBitId: string): Promise<VersionGraph> {
  const graph = await buildFlowGraph(q, dialect, accountId, startBitId);
  const revisions = await latestRevisions(q, accountId, graph.bits.map((b) => b.bit_id));
  const bits: Record<string, number> = {};
  const titles: Record<string, string> = {};
  for (const bit of graph.bits) {
    bits[bit.bit_id] = revisions.get(bit.bit_id) ?? 0;
    titles[bit.bit_id] = bit.bit_title;
  }
  const connections = graph.bits.flatMap((b) => b.connections.map((c) => ({ connection_id: c.connection_id, source_bit_id: b.bit_id, target_bit_id: c.target_bit_id, label: c.label })));
  return { start_bit_id: startBitId, bits, titles, connections };
}

/** Whether two graphs differ in their bits, a bit's revision, or their connections. */
export function graphsDiffer(a: VersionGraph, b: VersionGraph): boolean {
  const key = (g: VersionGraph) => JSON.stringify([g.start_bit_id, Object.entries(g.bits).sort(), g.connections.map((c) => [c.connection_id, c.source_bit_id, c.target_bit_id, c.label]).sort()]);
  return key(a) !== key(b);
}
