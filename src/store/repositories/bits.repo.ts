import type { Insertable, Updateable } from 'kysely';
import type { BitTable } from '../schema.js';
import type { StoreDialect } from '../dialects/dialect.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, listedRows, type ListFilter, type Page, type PageKey } from './paging.js';

type Q = Db | Tx;

/** The bit; with `seen`, only if that caller may see it (the services' own reads pass none). */
export async function findBit(q: Q, id: string, seen?: Visibility) {
  return q.selectFrom('bits').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/**
 * The bit's row, locked for the rest of the transaction (see StoreDialect.forUpdate); `seen` as in findBit.
 * The strong lock: only archive_bit (of the bit it archives) and the writers that must hold a bit against it.
 */
export async function lockBit(q: Tx, dialect: StoreDialect, id: string, seen?: Visibility) {
  return dialect.forUpdate(q.selectFrom('bits').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

/**
 * A bit's row locked as the writer of its body and of its outgoing rows: FOR NO KEY UPDATE (see
 * StoreDialect.forNoKeyUpdate). Writers of one bit queue on it, while inserts of connections that point at
 * it (their foreign-key check) pass: a connect S→T never waits for a writer of T, so connects and body
 * edits between the same bits, either way round, cannot deadlock. Only archive_bit takes the strong lock
 * on the bit it archives (clearIncoming in bits/connection-rows.ts).
 */
export async function lockBitForWrite(q: Tx, dialect: StoreDialect, id: string, seen?: Visibility) {
  return dialect.forNoKeyUpdate(q.selectFrom('bits').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

/** Every column of a bit but its body (which can be 8 MB): a column BitTable gains and this lacks does not compile. */
const HEAD_COLUMNS: Record<Exclude<keyof BitTable, 'body'>, true> = {
  id: true,
  account_id: true,
  scope_id: true,
  title: true,
  abstract: true,
  description: true,
  categories: true,
  complexity: true,
  human_required: true,
  assignee: true,
  expected_duration: true,
  status: true,
  created_by: true,
  created_at: true,
  updated_at: true,
};
const HEAD = Object.keys(HEAD_COLUMNS) as Array<keyof typeof HEAD_COLUMNS>;

/** lockBitForWrite without the body: for a writer that has the body it needs already (and reads it with bitBody if not). */
export async function lockBitHeadForWrite(q: Tx, dialect: StoreDialect, id: string, seen?: Visibility) {
  return dialect.forNoKeyUpdate(q.selectFrom('bits').select(HEAD).where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

/** A bit's stored body, as the store gives it (JSON text on SQLite). */
export async function bitBody(q: Q, id: string): Promise<unknown> {
  return (await q.selectFrom('bits').select('body').where('id', '=', id).executeTakeFirstOrThrow()).body;
}

/**
 * Connection targets, read FOR KEY SHARE (see StoreDialect.forKeyShare) before rows pointing at them are
 * inserted: an archive_bit holding one FOR UPDATE is waited for and its result read, and once we hold the
 * share lock an archive waits for our commit and then sees our row. In id order, as locks should be taken.
 */
export async function readTargets(q: Tx, dialect: StoreDialect, ids: readonly string[], seen: Visibility) {
  if (ids.length === 0) return [];
  // Only what the target checks need: a target's body can be megabytes.
  return dialect.forKeyShare(q.selectFrom('bits').select(['id', 'account_id', 'scope_id', 'status']).where('id', 'in', [...ids]).where(visibleTo(seen)).orderBy('id')).execute();
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

export interface BitListFilter extends ListFilter {
  status?: BitTable['status'];
}

export type BitListRow = Omit<BitTable, 'body'>;

export async function listBits(
  q: Q,
  seen: Visibility,
  filter: BitListFilter,
  page: { limit: number; cursor?: string },
  keep: (row: BitListRow) => boolean,
): Promise<Page<BitListRow>> {
  const fetch = (after: PageKey | null, count: number) => {
    let query = q
      .selectFrom('bits')
      .select(['id', 'account_id', 'scope_id', 'title', 'abstract', 'description', 'categories', 'complexity', 'human_required', 'assignee', 'expected_duration', 'status', 'created_by', 'created_at', 'updated_at'])
      .where(listedRows(seen, filter, ['title', 'abstract', 'description']));
    if (filter.status) query = query.where('status', '=', filter.status);
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  return keysetPage(fetch, keep, page.limit, page.cursor);
}
