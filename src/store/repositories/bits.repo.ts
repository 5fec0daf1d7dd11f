import type { Insertable, Updateable } from 'kysely';
import type { BitTable } from '../schema.js';
import type { StoreDialect } from '../dialects/dialect.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export async function findBit(q: Q, id: string) {
  return q.selectFrom('bits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The bit's row, locked for the rest of the transaction (see StoreDialect.forUpdate). */
export async function lockBit(q: Tx, dialect: StoreDialect, id: string) {
  return dialect.forUpdate(q.selectFrom('bits').selectAll().where('id', '=', id)).executeTakeFirst();
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

/** These bits without their bodies (a body can be 8 MB): for lists, graphs and a step's connection targets. */
export async function findBitHeads(q: Q, ids: string[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('bits').select(['id', 'account_id', 'scope_id', 'title', 'status', 'human_required']).where('id', 'in', ids).execute();
}

/** The `bit-connection` nodes of a bit's body, without reading the body (StoreDialect.connectionNodesOf). */
export async function connectionNodesOf(q: Q, dialect: StoreDialect, id: string): Promise<unknown[]> {
  const result = await dialect.connectionNodesOf(id).execute(q);
  return result.rows.map((row) => dialect.parseJson(row.node));
}
