/**
 * Keeping a source bit's mirror rows equal to the connection nodes of its body (authoring-interface.md,
 * "Bit-to-bit connection": stored twice, changed atomically). Runs inside the caller's transaction.
 */
import { randomUUID } from 'node:crypto';
import { collectConnections, type SlateBody } from '../content/index.js';
import { WaymarkError } from '../errors.js';
import { findBits } from '../store/repositories/bits.repo.js';
import { outgoing, replaceOutgoing } from '../store/repositories/connections.repo.js';
import type { Tx } from '../store/store.js';
import { canSee, type Actor } from './actor.js';
import { nowIso } from './clock.js';

interface Source {
  id: string;
  account_id: string;
  scope_id: string | null;
}

/** A connection's target: visible, active, and in the source's scope (connect_bits rules). */
export function checkTarget(actor: Actor, source: Source, target: { id: string; account_id: string; scope_id: string | null; status: string } | undefined, targetId: string): void {
  if (!target || !canSee(actor, target)) throw new WaymarkError('BIT_NOT_FOUND', `No bit ${targetId} is visible to this token: check the target id (list_bits lists the bits you can connect to).`, { bit_id: targetId });
  if (target.status !== 'active') throw new WaymarkError('BIT_ARCHIVED', `Bit ${targetId} is archived; connect only active bits.`, { bit_id: targetId });
  if (target.scope_id !== source.scope_id) {
    throw new WaymarkError('SCOPE_MISMATCH', `Bit ${targetId} is in scope ${target.scope_id ?? 'account level'} but the source is in ${source.scope_id ?? 'account level'}; both ends of a connection share a scope.`, {
      source_scope_id: source.scope_id,
      target_scope_id: target.scope_id,
    });
  }
}

/**
 * Gives every new connection node (id null) an id after checking its target, then rewrites the mirror
 * rows in body order. Answers the ids of the rows that no longer have a node.
 */
export async function syncConnectionRows(tx: Tx, actor: Actor, source: Source, body: SlateBody): Promise<string[]> {
  const nodes = collectConnections(body);
  const fresh = nodes.filter((n) => n.id === null);
  if (fresh.length > 0) {
    const targets = new Map((await findBits(tx, [...new Set(fresh.map((n) => n.target_bit_id))])).map((b) => [b.id, b]));
    for (const node of fresh) {
      checkTarget(actor, source, targets.get(node.target_bit_id), node.target_bit_id);
      node.id = randomUUID();
    }
  }
  const existing = await outgoing(tx, source.id);
  const createdAt = new Map(existing.map((r) => [r.id, r.created_at]));
  const now = nowIso();
  await replaceOutgoing(
    tx,
    source.account_id,
    source.id,
    nodes.map((n) => ({ id: n.id as string, target_bit_id: n.target_bit_id, created_at: createdAt.get(n.id as string) ?? now })),
  );
  const kept = new Set(nodes.map((n) => n.id));
  return existing.filter((r) => !kept.has(r.id)).map((r) => r.id);
}
