/**
 * A flow's graph as get_flow shows it: the bits reachable from the start bit along the connection
 * mirror rows, each with its outgoing connections in sort_order and their conditions, which live in
 * the source bit's body (the `bit-connection` void node whose id is the connection id).
 */
import type { ConnectionCondition } from '../content/slate.js';
import * as flowsRepo from '../store/repositories/flows.repo.js';
import { findBits } from '../store/repositories/bits.repo.js';
import type { StoreDialect } from '../store/dialects/dialect.js';
import type { Db, Tx } from '../store/store.js';

export interface GraphConnection {
  connection_id: string;
  target_bit_id: string;
  target_bit_title: string | null;
  sort_order: number;
  label: string | null;
  /** The preview flags of the connection's body node (`preview: false`, …), as stored. */
  params: Record<string, boolean>;
  /** Its `when`: available only when this option is chosen or this check-list item is (un)checked; null = always. */
  condition: ConnectionCondition | null;
}

export interface GraphBit {
  bit_id: string;
  bit_title: string;
  status: 'active' | 'archived';
  human_required: boolean;
  /** Steps from the start bit along the shortest path (0 for the start bit); null when unreachable. */
  depth: number | null;
  connections: GraphConnection[];
}

export interface FlowGraph {
  start_bit_id: string;
  bits: GraphBit[];
  unreachable_bit_ids: string[];
  /** The unreachable bits in full, for drawing (get_flow answers only their ids). */
  unreachable_bits: GraphBit[];
}

/** A `bit-connection` node as found in a stored body (content/slate.ts ConnectionNode), read defensively. */
export interface StoredConnection {
  id: string;
  target_bit_id: string | null;
  label: string | null;
  params: Record<string, boolean>;
  when: ConnectionCondition | null;
}

type ConnectionRow = Awaited<ReturnType<typeof flowsRepo.connectionsFrom>>[number];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored `when` (content/slate.ts ConnectionCondition), or null when absent or malformed. */
export function readCondition(when: unknown): ConnectionCondition | null {
  if (!isRecord(when) || typeof when.element_id !== 'string') return null;
  if (typeof when.checked === 'boolean') return { element_id: when.element_id, checked: when.checked };
  if (Array.isArray(when.option_ids) && when.option_ids.every((o) => typeof o === 'string')) {
    return { element_id: when.element_id, option_ids: when.option_ids as string[] };
  }
  return null;
}

/** Every `bit-connection` node of a Slate body (an object with children, or a node array), by its id. */
export function connectionNodes(body: unknown): Map<string, StoredConnection> {
  const found = new Map<string, StoredConnection>();
  // Iterative: a stored body may be deeply nested (content/slate.ts walks the same way).
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (!isRecord(node)) continue;
    if (node.type === 'bit-connection' && typeof node.id === 'string') {
      const params: Record<string, boolean> = {};
      let when: ConnectionCondition | null = null;
      if (isRecord(node.params)) {
        for (const [key, value] of Object.entries(node.params)) {
          if (typeof value === 'boolean') params[key] = value;
        }
        when = readCondition(node.params.when);
      }
      found.set(node.id, {
        id: node.id,
        target_bit_id: typeof node.target_bit_id === 'string' ? node.target_bit_id : null,
        label: typeof node.label === 'string' && node.label !== '' ? node.label : null,
        params,
        when,
      });
    }
    if (Array.isArray(node.children)) stack.push(node.children);
  }
  return found;
}

/**
 * Breadth-first from the start bit along the mirror rows; each bit once, at its shortest depth.
 *
 * `unreachable_bit_ids` (our definition; the contract leaves it open): the bits that belong to the
 * flow's graph — joined to the start bit by connections in either direction — that no path from the
 * start reaches. They are the branches an author wired in (a bit pointing into the flow, or one only
 * such bits lead to) but that a trail can never enter. Bits of the scope unrelated to the flow are not listed.
 */
export async function buildFlowGraph(q: Db | Tx, dialect: StoreDialect, accountId: string, startBitId: string): Promise<FlowGraph> {
  const depth = new Map<string, number>([[startBitId, 0]]);
  const outgoing = new Map<string, ConnectionRow[]>();
  let frontier = [startBitId];
  while (frontier.length > 0) {
    const rows = await flowsRepo.connectionsFrom(q, accountId, frontier);
    const next: string[] = [];
    for (const row of rows) {
      const list = outgoing.get(row.source_bit_id) ?? [];
      list.push(row);
      outgoing.set(row.source_bit_id, list);
      if (!depth.has(row.target_bit_id)) {
        depth.set(row.target_bit_id, depth.get(row.source_bit_id)! + 1);
        next.push(row.target_bit_id);
      }
    }
    frontier = next;
  }

  // The weakly connected component around the reachable set, minus that set.
  const component = new Set(depth.keys());
  const touching = new Map<string, ConnectionRow>();
  frontier = [...component];
  while (frontier.length > 0) {
    const rows = await flowsRepo.connectionsTouching(q, accountId, frontier);
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

  const rows = (await findBits(q, [...component])).filter((b) => b.account_id === accountId);
  const byId = new Map(rows.map((b) => [b.id, b]));
  const describe = (id: string): GraphBit | null => {
    const bit = byId.get(id);
    if (!bit) return null;
    const nodes = connectionNodes(dialect.parseJson<unknown>(bit.body));
    return {
      bit_id: bit.id,
      bit_title: bit.title,
      status: bit.status,
      human_required: bit.human_required === 1,
      depth: depth.get(id) ?? null,
      connections: (outgoing.get(id) ?? []).map((row) => {
        const node = nodes.get(row.id);
        return {
          connection_id: row.id,
          target_bit_id: row.target_bit_id,
          target_bit_title: byId.get(row.target_bit_id)?.title ?? null,
          sort_order: row.sort_order,
          label: node?.label ?? null,
          params: node?.params ?? {},
          condition: node?.when ?? null,
        };
      }),
    };
  };
  const present = (b: GraphBit | null): b is GraphBit => b !== null;
  return {
    start_bit_id: startBitId,
    bits: [...depth.keys()].map(describe).filter(present),
    unreachable_bit_ids: unreachable,
    unreachable_bits: unreachable.map(describe).filter(present),
  };
}
