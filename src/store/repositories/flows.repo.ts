import { sql, type Insertable, type Updateable } from 'kysely';
import { lowerText, type StoreDialect } from '../dialects/dialect.js';
import type { BitTable, FlowTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { inScope, visibleTo, type Visibility } from '../visibility.js';
import { afterKey, containsPattern, keysetPage, type PageKey } from './paging.js';

type Q = Db | Tx;

export type FlowRow = FlowTable;

/** The flow; with `seen`, only if that caller may see it (the services' own reads pass none). */
export async function findFlow(q: Q, id: string, seen?: Visibility) {
  return q.selectFrom('flows').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** The flow's row if `seen` may see it, locked for the rest of the transaction (see StoreDialect.forUpdate). */
export async function lockFlow(q: Tx, dialect: StoreDialect, id: string, seen: Visibility) {
  return dialect.forUpdate(q.selectFrom('flows').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

export async function insertFlow(q: Q, row: Insertable<FlowTable>): Promise<void> {
  await q.insertInto('flows').values(row).execute();
}

export async function updateFlow(q: Q, id: string, changes: Updateable<FlowTable>): Promise<void> {
  await q.updateTable('flows').set(changes).where('id', '=', id).execute();
}

/**
 * Ids of the active flows whose start bit this is: what archive_bit must refuse over
 * (BIT_IS_ACTIVE_FLOW_START). Call it inside the transaction that holds the bit's row lock.
 */
export async function activeFlowsStartingAt(q: Q, bitId: string): Promise<string[]> {
  const rows = await q.selectFrom('flows').select('id').where('start_bit_id', '=', bitId).where('is_active', '=', 1).orderBy('id').execute();
  return rows.map((r) => r.id);
}

export interface ListFilter {
  /** undefined: every visible scope; null: account level only. */
  scopeId?: string | null;
  /** Narrowed in SQL, then matched exactly by the caller's `keep` (a value inside a JSON array). */
  category?: string;
  query?: string;
}

export interface FlowListFilter extends ListFilter {
  isActive?: boolean;
  reviewStatus?: FlowTable['review_status'];
  priority?: FlowTable['priority'];
}

export interface BitListFilter extends ListFilter {
  status?: BitTable['status'];
}

export interface Page<R> {
  rows: R[];
  next_cursor: string | null;
}

/** The JSON text of a category as it appears inside the stored array, for a LIKE that narrows the rows. */
function categoryPattern(category: string): string {
  return `%${JSON.stringify(category).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listFlows(
  q: Q,
  seen: Visibility,
  filter: FlowListFilter,
  page: { limit: number; cursor?: string },
  keep: (row: FlowRow) => boolean,
): Promise<Page<FlowRow>> {
  const fetch = (after: PageKey | null, count: number) => {
    let query = q.selectFrom('flows').selectAll().where(visibleTo(seen)).where(inScope(filter.scopeId));
    if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive ? 1 : 0);
    if (filter.reviewStatus) query = query.where('review_status', '=', filter.reviewStatus);
    if (filter.priority) query = query.where('priority', '=', filter.priority);
    if (filter.category !== undefined) query = query.where(sql<string>`cast(categories as text)`, 'like', sql<string>`${categoryPattern(filter.category)} escape '\\'`);
    if (filter.query) {
      const pattern = containsPattern(filter.query);
      query = query.where((eb) =>
        eb.or([
          eb(lowerText(sql.ref('title')), 'like', sql<string>`${pattern} escape '\\'`),
          eb(lowerText(sql.ref('description')), 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  return keysetPage(fetch, keep, page.limit, page.cursor);
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
      .select(['id', 'account_id', 'scope_id', 'title', 'abstract', 'description', 'categories', 'complexity', 'human_required', 'status', 'created_by', 'created_at', 'updated_at'])
      .where(visibleTo(seen))
      .where(inScope(filter.scopeId));
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.category !== undefined) query = query.where(sql<string>`cast(categories as text)`, 'like', sql<string>`${categoryPattern(filter.category)} escape '\\'`);
    if (filter.query) {
      const pattern = containsPattern(filter.query);
      query = query.where((eb) =>
        eb.or([
          eb(lowerText(sql.ref('title')), 'like', sql<string>`${pattern} escape '\\'`),
          eb(lowerText(sql.ref('abstract')), 'like', sql<string>`${pattern} escape '\\'`),
          eb(lowerText(sql.ref('description')), 'like', sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  return keysetPage(fetch, keep, page.limit, page.cursor);
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
