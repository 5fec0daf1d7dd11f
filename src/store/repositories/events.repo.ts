/**
 * The event log (migration 013): appended to, never updated or deleted. An account's events are appended one at a
 * time (lockChain), so each reads the previous one's seq and hash and no two share a seq or fork the chain.
 */
import type { StoreDialect } from '../dialects/dialect.js';
import { visibleTo, type Visibility } from '../visibility.js';
import type { EventTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

/** Until the transaction ends, this account's events are appended by this transaction alone. */
export async function lockChain(tx: Tx, dialect: StoreDialect, accountId: string): Promise<void> {
  await dialect.lockKey(tx, `waymark.events:${accountId}`);
}

/** The account's last event: where the next one continues the chain. */
export async function chainHead(q: Q, accountId: string): Promise<{ seq: number; hash: string } | undefined> {
  return q.selectFrom('events').select(['seq', 'hash']).where('account_id', '=', accountId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

/** How many events name this resource so far: its revision before the next change. */
export async function resourceChanges(q: Q, accountId: string, resourceType: string, resourceId: string): Promise<number> {
  // The resource's latest event carries its count (revisions run 1, 2, 3… per resource): one index probe, not a
  // count that grows with the resource's history.
  const row = await q
    .selectFrom('events')
    .select('revision')
    .where('account_id', '=', accountId)
    .where('resource_type', '=', resourceType)
    .where('resource_id', '=', resourceId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.revision) : 0;
}

export async function insertEvent(tx: Tx, row: EventTable): Promise<void> {
  await tx.insertInto('events').values(row).execute();
}

/** The account's events in chain order, `limit` at a time after `afterSeq`: what `waymark audit verify` walks. */
export async function eventsAfter(q: Q, accountId: string, afterSeq: number, limit: number): Promise<EventTable[]> {
  return q.selectFrom('events').selectAll().where('account_id', '=', accountId).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
}

export interface EventFilter {
  resourceType?: string;
  resourceId?: string;
  /** A scope's events; null: the account level's. */
  scopeId?: string | null;
  principalId?: string;
  operation?: string;
  /** occurred_at bounds, as stored (UTC ISO text): since inclusive, until exclusive. */
  since?: string;
  until?: string;
}

/** The events `seen` may see (visibility.ts: its account; a scope-limited one its scope's and account level's), newest first, before `beforeSeq`. */
export async function listEvents(q: Q, seen: Visibility, filter: EventFilter, page: { limit: number; beforeSeq?: number }): Promise<EventTable[]> {
  let query = q.selectFrom('events').selectAll().where(visibleTo(seen));
  if (filter.resourceType !== undefined) query = query.where('resource_type', '=', filter.resourceType);
  if (filter.resourceId !== undefined) query = query.where('resource_id', '=', filter.resourceId);
  if (filter.scopeId === null) query = query.where('scope_id', 'is', null);
  else if (filter.scopeId !== undefined) query = query.where('scope_id', '=', filter.scopeId);
  if (filter.principalId !== undefined) query = query.where('principal_id', '=', filter.principalId);
  if (filter.operation !== undefined) query = query.where('operation', '=', filter.operation);
  if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('occurred_at', '<', filter.until);
  if (page.beforeSeq !== undefined) query = query.where('seq', '<', page.beforeSeq);
  return query.orderBy('seq', 'desc').limit(page.limit).execute();
}

/** The event that made this revision of the resource. */
export async function eventOfRevision(q: Q, accountId: string, resourceType: string, resourceId: string, revision: number): Promise<EventTable | undefined> {
  return q
    .selectFrom('events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('resource_type', '=', resourceType)
    .where('resource_id', '=', resourceId)
    .where('revision', '=', revision)
    .limit(1)
    .executeTakeFirst();
}

/** One event of the account, by its id. */
export async function eventOfId(q: Q, accountId: string, id: string): Promise<EventTable | undefined> {
  return q.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}
