import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export async function findConnection(q: Q, id: string) {
  return q.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function outgoing(q: Q, sourceBitId: string) {
  return q.selectFrom('connections').selectAll().where('source_bit_id', '=', sourceBitId).orderBy('sort_order').execute();
}

export async function incomingSources(q: Q, targetBitId: string): Promise<string[]> {
  const rows = await q.selectFrom('connections').select('source_bit_id').distinct().where('target_bit_id', '=', targetBitId).execute();
  return rows.map((r) => r.source_bit_id).sort();
}

export async function countOutgoing(q: Q, sourceBitId: string): Promise<number> {
  const row = await q.selectFrom('connections').select((eb) => eb.fn.countAll<string | number>().as('n')).where('source_bit_id', '=', sourceBitId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertConnection(
  q: Q,
  row: { id: string; account_id: string; source_bit_id: string; target_bit_id: string; sort_order: number; created_at: string },
): Promise<void> {
  await q.insertInto('connections').values(row).execute();
}

/**
 * Makes the mirror rows of a source bit exactly the given list, in order: sort_order is the position
 * in the list (dense 0..n-1). Rows are deleted and written again rather than renumbered in place,
 * because a renumbering UPDATE could collide with the (source, sort_order) unique constraint midway.
 */
export async function replaceOutgoing(
  q: Tx,
  accountId: string,
  sourceBitId: string,
  connections: Array<{ id: string; target_bit_id: string; created_at: string }>,
): Promise<void> {
  await q.deleteFrom('connections').where('source_bit_id', '=', sourceBitId).execute();
  if (connections.length === 0) return;
  await q
    .insertInto('connections')
    .values(connections.map((c, i) => ({ id: c.id, account_id: accountId, source_bit_id: sourceBitId, target_bit_id: c.target_bit_id, sort_order: i, created_at: c.created_at })))
    .execute();
}
