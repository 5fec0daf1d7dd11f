import type { Insertable, Updateable } from 'kysely';
import type { StoreDialect, ReferenceSearchHit, ReferenceSearchQuery } from '../dialects/dialect.js';
import type { ReferenceTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';

type Q = Db | Tx;

/**
 * Every column of the typed row that callers read, named: `select *` would also drag PostgreSQL's search_vector
 * (migration 002) and the snippet window (migration 007) along, which only search reads.
 */
const COLUMNS = [
  'id',
  'account_id',
  'scope_id',
  'title',
  'abstract',
  'content',
  'search_text',
  'categories',
  'is_active',
  'author_principal_id',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof ReferenceTable>;

/** The reference, if `seen` may see it. */
export async function findReference(q: Q, id: string, seen: Visibility) {
  return q.selectFrom('library_references').select(COLUMNS).where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** The reference's row if `seen` may see it, locked for the rest of the transaction (see StoreDialect.forUpdate). */
export async function lockReference(q: Tx, dialect: StoreDialect, id: string, seen: Visibility) {
  return dialect.forUpdate(q.selectFrom('library_references').select(COLUMNS).where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

/** The few columns the citability and link checks need, for those of many ids that `seen` may see. */
export async function findReferenceStates(q: Q, ids: string[], seen: Visibility) {
  if (ids.length === 0) return [];
  return q.selectFrom('library_references').select(['id', 'account_id', 'scope_id', 'is_active', 'title']).where('id', 'in', ids).where(visibleTo(seen)).execute();
}

export async function insertReference(q: Q, row: Insertable<ReferenceTable>): Promise<void> {
  await q.insertInto('library_references').values(row).execute();
}

/** Batch insert (the bench loads 100,000 this way); the search index follows by itself (migration 002). */
export async function insertReferences(q: Q, rows: Insertable<ReferenceTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await q.insertInto('library_references').values(rows).execute();
}

export async function updateReference(q: Q, id: string, changes: Updateable<ReferenceTable>): Promise<void> {
  await q.updateTable('library_references').set(changes).where('id', '=', id).execute();
}

/** One page of ranked hits (the engine's part lives in the dialect's search). */
export async function searchReferences(q: Q, dialect: StoreDialect, query: ReferenceSearchQuery): Promise<ReferenceSearchHit[]> {
  return dialect.search.searchReferences(q, query);
}
