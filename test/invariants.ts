/**
 * The graph invariant of authoring-interface.md, "Bit-to-bit connection": a connection is stored twice, as a
 * void node in the source bit's body and as a mirror row, and the two never disagree. Checked over the
 * whole store after a test (or a concurrency run): for every bit, the connection nodes of its stored body
 * are its mirror rows in the same order; sort_order is 0..n-1; n ≤ 20; an archived bit has no connection,
 * neither outgoing nor incoming. Plain errors, not `expect`, so a bench can call it outside vitest.
 */
import { collectConnections, type SlateBody } from '../src/content/index.js';
import { LIMITS } from '../src/limits/index.js';
import type { Store } from '../src/store/store.js';

/** Every way the store breaks the invariant, one sentence each; empty when it holds. */
export async function graphViolations(store: Store): Promise<string[]> {
  const bits = await store.db.selectFrom('bits').select(['id', 'account_id', 'status', 'body']).execute();
  const rows = await store.db.selectFrom('connections').selectAll().orderBy('source_bit_id').orderBy('sort_order').execute();
  const status = new Map(bits.map((b) => [b.id, b.status]));
  const bySource = new Map<string, typeof rows>();
  for (const row of rows) bySource.set(row.source_bit_id, [...(bySource.get(row.source_bit_id) ?? []), row]);
  const problems: string[] = [];
  for (const bit of bits) {
    const nodes = collectConnections(store.dialect.parseJson<SlateBody>(bit.body));
    const mirror = bySource.get(bit.id) ?? [];
    const fromBody = nodes.map((n) => `${n.id ?? 'null'}→${n.target_bit_id}`);
    const fromRows = mirror.map((r) => `${r.id}→${r.target_bit_id}`);
    if (fromBody.join(' ') !== fromRows.join(' ')) {
      problems.push(`bit ${bit.id}: body connections [${fromBody.join(', ')}] ≠ mirror rows [${fromRows.join(', ')}]`);
    }
    const orders = mirror.map((r) => Number(r.sort_order));
    if (orders.some((o, i) => o !== i)) problems.push(`bit ${bit.id}: sort_order ${JSON.stringify(orders)} is not 0..${mirror.length - 1}`);
    if (mirror.length > LIMITS.outgoingConnections) problems.push(`bit ${bit.id}: ${mirror.length} outgoing connections (max ${LIMITS.outgoingConnections})`);
    if (nodes.length > LIMITS.outgoingConnections) problems.push(`bit ${bit.id}: ${nodes.length} connection nodes in its body`);
    if (bit.status === 'archived' && (nodes.length > 0 || mirror.length > 0)) problems.push(`archived bit ${bit.id} still has outgoing connections`);
    for (const r of mirror) {
      if (r.account_id !== bit.account_id) problems.push(`connection ${r.id}: account ${r.account_id}, its source's is ${bit.account_id}`);
    }
  }
  for (const r of rows) {
    if (!status.has(r.source_bit_id)) problems.push(`connection ${r.id}: its source ${r.source_bit_id} does not exist`);
    if (status.get(r.target_bit_id) !== 'active') problems.push(`connection ${r.id}: its target ${r.target_bit_id} is ${status.get(r.target_bit_id) ?? 'missing'}`);
  }
  return problems;
}

export async function assertGraphInvariant(store: Store): Promise<void> {
  const problems = await graphViolations(store);
  if (problems.length > 0) throw new Error(`graph invariant broken (${problems.length}):\n${problems.slice(0, 20).join('\n')}`);
}
