/**
 * A flow's graph as get_flow shows it: the bits reachable from the start bit along the connection
 * mirror rows, each with its outgoing connections in sort_order and their conditions, which live in
 * the source bit's body (the `bit-connection` void node whose id is the connection id).
 */
import type { ConnectionNode } from '../../content/index.js';
import { connectionsFrom, connectionsTouching } from '../../store/repositories/connections.repo.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { connectionNodesOf, findBitHeads } from '../../store/repositories/bits.repo.js';
import { accountWide } from '../../store/visibility.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import type { Db, Tx } from '../../store/store.js';
import { bitHead, connectionNodesById, connectionOf } from '../bits/view.js';
import type { GraphBit } from './shapes.js';

export type { GraphBit } from './shapes.js';

export interface FlowGraph {
  start_bit_id: string;
  bits: GraphBit[];
  unreachable_bit_ids: string[];
  /** The unreachable bits in full, for drawing (get_flow answers only their ids). */
  unreachable_bits: GraphBit[];
}

type ConnectionRow = Awaited<ReturnType<typeof connectionsFrom>>[number];

/**
 * Breadth-first from the start bit along the mirror rows; each bit once, at its shortest depth.
 *
 * `unreachable_bit_ids` (our definition; the contract leaves it open): the bits that belong to the
 * flow's graph — joined to the start bit by connections in either direction — that no path from the
 * start reaches. They are the branches an author wired in (a bit pointing into the flow, or one only
 * such bits lead to) but that a trail can never enter. Bits of the scope unrelated to the flow are not listed.
 */
export async function buildFlowGraph(q: Db | Tx, dialect: StoreDialect, accountId: string, startBitId: string): Promise<FlowGraph> {
  return walkGraph(q, dialect, accountId, [startBitId], {});
}

/**
 * The bits reachable from several bits at once (each at depth 0), and nothing else: the way ahead of a trail's step
 * starts at the targets of the step's connections, which its snapshot holds.
 */
export async function reachableFrom(q: Db | Tx, dialect: StoreDialect, accountId: string, starts: readonly string[]): Promise<GraphBit[]> {
  return starts.length === 0 ? [] : (await walkGraph(q, dialect, accountId, [...new Set(starts)], { reachableOnly: true })).bits;
}

async function walkGraph(q: Db | Tx, dialect: StoreDialect, accountId: string, starts: string[], options: { reachableOnly?: boolean }): Promise<FlowGraph> {
  const depth = new Map<string, number>(starts.map((id) => [id, 0]));
  const outgoing = new Map<string, ConnectionRow[]>();
  let frontier = starts;
  while (frontier.length > 0) {
    const rows = await connectionsFrom(q, accountId, frontier);
    const next: string[] = [];
    for (const row of rows) {
      const list = outgoing.get(row.source_bit_id) ?? [];
      list.push(row);
      outgoing.set(row.source_bit_id, list);
    }
    // In the order the walk reached the sources, each one's connections in sort_order: breadth-first order.
    for (const row of frontier.flatMap((id) => outgoing.get(id) ?? [])) {
      if (!depth.has(row.target_bit_id)) {
        depth.set(row.target_bit_id, depth.get(row.source_bit_id)! + 1);
        next.push(row.target_bit_id);
      }
    }
    frontier = next;
  }

  // The weakly connected component around the reachable set, minus that set (not walked when only the reachable
  // bits are wanted: the way ahead of a trail's step).
  const component = new Set(depth.keys());
  const touching = new Map<string, ConnectionRow>();
  frontier = options.reachableOnly ? [] : [...component];
  while (frontier.length > 0) {
    const rows = await connectionsTouching(q, accountId, frontier);
    const next: string[] = [];
    for (const row of rows) {
      touching.set(row.id, row);
      for (const id of [row.source_bit_id, row.target_bit_id]) {
        if (!component.has(id)) {
          component.add(id);
          next.push(id);
        }
      }
    }
    frontier = next;
  }
  const unreachable = [...component].filter((id) => !depth.has(id)).sort();
  for (const row of [...touching.values()].sort((a, b) => a.sort_order - b.sort_order)) {
    if (depth.has(row.source_bit_id)) continue;
    const list = outgoing.get(row.source_bit_id) ?? [];
    list.push(row);
    outgoing.set(row.source_bit_id, list);
  }

  const rows = await findBitHeads(q, [...component], accountWide(accountId));
  const byId = new Map(rows.map((b) => [b.id, b]));
  // Only the connection nodes of a body are read, and only where connections leave the bit, the event loop
  // given back between two bits: a graph of 150 bits of 2 MB read whole held 300 MB and blocked 4.5 s.
  const nodesOf = new Map<string, Map<string, ConnectionNode>>();
  for (const id of byId.keys()) {
    if ((outgoing.get(id) ?? []).length === 0) continue;
    nodesOf.set(id, connectionNodesById((await connectionNodesOf(q, dialect, id)) as ConnectionNode[]));
    await yieldToEventLoop();
  }
  const describe = (id: string): GraphBit | null => {
    const bit = byId.get(id);
    if (!bit) return null;
    const nodes = nodesOf.get(id);
    return {
      ...bitHead(bit),
      depth: depth.get(id) ?? null,
      connections: (outgoing.get(id) ?? []).map((row) => {
        const { connection_id, target_bit_id, ...rest } = connectionOf(row, nodes?.get(row.id));
        // The target's title after its id, where get_flow has always put it.
        return { connection_id, target_bit_id, target_bit_title: byId.get(row.target_bit_id)?.title ?? null, ...rest };
      }),
    };
  };
  const present = (b: GraphBit | null): b is GraphBit => b !== null;
  return {
    start_bit_id: starts[0]!,
    bits: [...depth.keys()].map(describe).filter(present),
    unreachable_bit_ids: unreachable,
    unreachable_bits: unreachable.map(describe).filter(present),
  };
}
