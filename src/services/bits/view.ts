/**
 * The one mapper from the bits aggregate's rows to its views: a bit row to its summary (list_bits, get_bit) or its
 * head (get_flow's graph), and a connection's mirror row with its body node to the stored connection every view
 * of a connection starts from (get_flow's graph, a trail step's snapshot).
 */
import type { ConnectionNode } from '../../content/index.js';
import type { BitTable } from '../../store/schema.js';
import type { BitHead, BitSummary, Connection } from './shapes.js';

type Parse = <T>(raw: unknown) => T;

export function bitHead(row: Pick<BitTable, 'id' | 'title' | 'status' | 'human_required'>): BitHead {
  return { bit_id: row.id, bit_title: row.title, status: row.status, human_required: row.human_required === 1 };
}

export function bitSummary(row: Omit<BitTable, 'body'>, parse: Parse): BitSummary {
  return {
    bit_id: row.id,
    bit_title: row.title,
    bit_abstract: row.abstract,
    bit_description: row.description,
    bit_categories: parse<string[]>(row.categories),
    complexity: row.complexity,
    human_required: row.human_required === 1,
    assignee: row.assignee,
    expected_duration: row.expected_duration,
    scope_id: row.scope_id,
    status: row.status,
    created_date_time_utc: row.created_at,
    last_modified_date_time_utc: row.updated_at,
  };
}

/** Connection nodes of a body by their id (the connection_id); nodes without one (not stored yet) are left out. */
export function connectionNodesById(nodes: readonly ConnectionNode[]): Map<string, ConnectionNode> {
  const found = new Map<string, ConnectionNode>();
  for (const node of nodes) if (node.id !== null) found.set(node.id, node);
  return found;
}

/**
 * A connection as stored: the mirror row is the set of connections and their order; the body node adds label,
 * preview flags and condition (a row without its node, which a write never leaves, shows none of them).
 */
export function connectionOf(row: { id: string; target_bit_id: string; sort_order: number }, node: ConnectionNode | undefined): Connection {
  const params: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(node?.params ?? {})) if (typeof value === 'boolean') params[key] = value;
  return {
    connection_id: row.id,
    target_bit_id: row.target_bit_id,
    sort_order: Number(row.sort_order),
    label: node?.label || null,
    params,
    condition: node?.params.when ?? null,
  };
}
