import type { Insertable, Updateable } from 'kysely';
import type { BitTable } from '../schema.js';
import type { StoreDialect } from '../dialects/dialect.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';

type Q = Db | Tx;

/** The bit; with `seen`, only if that caller may see it (the services' own reads pass none). */
export async function findBit(q: Q, id: string, seen?: Visibility) {
  return q.selectFrom('bits').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** The bit's row, locked for the rest of the transaction (see StoreDialect.forUpdate); `seen` as in findBit. */
export async function lockBit(q: Tx, dialect: StoreDialect, id: string, seen?: Visibility) {
  return dialect.forUpdate(q.selectFrom('bits').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

export async function findBits(q: Q, ids: string[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('bits').selectAll().where('id', 'in', ids).execute();
}

export async function insertBit(q: Q, row: Insertable<BitTable>): Promise<void> {
  await q.insertInto('bits').values(row).execute();
}

export async function updateBit(q: Q, id: string, changes: Updateable<BitTable>): Promise<void> {
  await q.updateTable('bits').set(changes).where('id', '=', id).execute();
}

/** Those of these bits that `seen` may see, without their bodies (a body can be 8 MB): for graphs and a step's connection targets. */
export async function findBitHeads(q: Q, ids: string[], seen: Visibility) {
  if (ids.length === 0) return [];
  return q.selectFrom('bits').select(['id', 'account_id', 'scope_id', 'title', 'status', 'human_required']).where('id', 'in', ids).where(visibleTo(seen)).execute();
}

/** The `bit-connection` nodes of a bit's body, without reading the body (StoreDialect.connectionNodesOf). */
export async function connectionNodesOf(q: Q, dialect: StoreDialect, id: string): Promise<unknown[]> {
  const result = await dialect.connectionNodesOf(id).execute(q);
  return result.rows.map((row) => dialect.parseJson(row.node));
}
