import type { Insertable, Updateable } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';
import type { FlowTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, listedRows, type ListFilter, type Page, type PageKey } from './paging.js';

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

export interface FlowListFilter extends ListFilter {
  isActive?: boolean;
  reviewStatus?: FlowTable['review_status'];
  priority?: FlowTable['priority'];
}

export async function listFlows(
  q: Q,
  seen: Visibility,
  filter: FlowListFilter,
  page: { limit: number; cursor?: string },
  keep: (row: FlowRow) => boolean,
): Promise<Page<FlowRow>> {
  const fetch = (after: PageKey | null, count: number) => {
    let query = q.selectFrom('flows').selectAll().where(listedRows(seen, filter, ['title', 'description']));
    if (filter.isActive !== undefined) query = query.where('is_active', '=', filter.isActive ? 1 : 0);
    if (filter.reviewStatus) query = query.where('review_status', '=', filter.reviewStatus);
    if (filter.priority) query = query.where('priority', '=', filter.priority);
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  return keysetPage(fetch, keep, page.limit, page.cursor);
}
