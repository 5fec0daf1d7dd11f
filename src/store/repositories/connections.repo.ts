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

/**
 * Appends a row at the source's next position (its row count) in one statement, and answers that position.
 * connect_bits checks the position afterwards (limit, explicit sort_order) and lets the transaction roll the
 * row back when it refuses: one round trip instead of a count and then an insert. The caller holds the
 * source's lock, so the count cannot move under it.
 */
export async function appendConnectionRow(q: Tx, row: { id: string; account_id: string; source_bit_id: string; target_bit_id: string; created_at: string }): Promise<number> {
  const inserted = await q
    .insertInto('connections')
    .columns(['id', 'account_id', 'source_bit_id', 'target_bit_id', 'sort_order', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('connections')
        .select((s) => [
          s.val(row.id).as('id'),
          s.val(row.account_id).as('account_id'),
          s.val(row.source_bit_id).as('source_bit_id'),
          s.val(row.target_bit_id).as('target_bit_id'),
          s.fn.countAll<number>().as('sort_order'),
          s.val(row.created_at).as('created_at'),
        ])
        .where('source_bit_id', '=', row.source_bit_id),
    )
    .returning('sort_order')
    .executeTakeFirstOrThrow();
  return Number(inserted.sort_order);
}

/** A connection's mirror row as writeOutgoing compares it: the body node holds the rest (services/bits/view.ts connectionOf). */
export interface MirrorRow {
  id: string;
  target_bit_id: string;
  sort_order: number;
}

/**
 * Makes the mirror rows of a source bit exactly `wanted`, in order: sort_order is the position in the list
 * (dense 0..n-1), so the next append is always the count. `stored` is what the source has now (read under
 * its lock). Only what differs is written:
 * - a kept row keeps its row, so a connect or a remove writes one row plus the ones that shift;
 * - only new rows are inserted. On PostgreSQL an insert's foreign-key check takes a KEY SHARE lock on the
 *   target bit, which waits for a concurrent transaction holding that bit FOR UPDATE; re-inserting every row
 *   on each write (as a delete-all-then-insert would) took those locks on every target and deadlocked
 *   concurrent writers of bits that point at each other.
 * Rows that move go to negative positions first and then to their places, so the (source, sort_order)
 * unique constraint never sees two rows on one position midway (PostgreSQL checks it row by row).
 */
export async function writeOutgoing(
  q: Tx,
  accountId: string,
  sourceBitId: string,
  stored: readonly MirrorRow[],
  wanted: ReadonlyArray<{ id: string; target_bit_id: string }>,
  createdAt: string,
): Promise<void> {
  const position = new Map(wanted.map((c, i) => [c.id, i]));
  const gone = stored.filter((r) => !position.has(r.id)).map((r) => r.id);
  if (gone.length > 0) await q.deleteFrom('connections').where('id', 'in', gone).execute();
  const moved = stored.filter((r) => position.has(r.id) && position.get(r.id) !== Number(r.sort_order));
  if (moved.length > 0) {
    const ids = moved.map((r) => r.id);
    await q
      .updateTable('connections')
      .set((eb) => ({ sort_order: eb(eb.neg(eb.ref('sort_order')), '-', 1) }))
      .where('id', 'in', ids)
      .execute();
    await q
      .updateTable('connections')
      .set((eb) => {
        let cases = eb.case().when('id', '=', moved[0].id).then(position.get(moved[0].id) as number);
        for (const r of moved.slice(1)) cases = cases.when('id', '=', r.id).then(position.get(r.id) as number);
        // Every row of the WHERE has a WHEN; the ELSE only makes the expression non-null.
        return { sort_order: cases.else(eb.ref('sort_order')).end() };
      })
      .where('id', 'in', ids)
      .execute();
  }
  const storedIds = new Set(stored.map((r) => r.id));
  const fresh = wanted.flatMap((c, i) => (storedIds.has(c.id) ? [] : [{ id: c.id, account_id: accountId, source_bit_id: sourceBitId, target_bit_id: c.target_bit_id, sort_order: i, created_at: createdAt }]));
  if (fresh.length > 0) await q.insertInto('connections').values(fresh).execute();
}

/** Connection mirror rows leaving any of these bits, in each source's sort_order. */
export async function connectionsFrom(q: Q, accountId: string, sourceIds: string[]) {
  if (sourceIds.length === 0) return [];
  return q
    .selectFrom('connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('source_bit_id', 'in', sourceIds)
    .orderBy('source_bit_id')
    .orderBy('sort_order')
    .execute();
}

/** Connection mirror rows that touch any of these bits, in either direction. */
export async function connectionsTouching(q: Q, accountId: string, bitIds: string[]) {
  if (bitIds.length === 0) return [];
  return q
    .selectFrom('connections')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('source_bit_id', 'in', bitIds), eb('target_bit_id', 'in', bitIds)]))
    .orderBy('source_bit_id')
    .orderBy('sort_order')
    .execute();
}
