/**
 * The inbox's reads (issue 11): running and waiting trails whose current step waits for one principal. Why a
 * trail is in it is decided on the trail's own columns (needs_person, migration 015), so that a page is read from
 * an index in the inbox's order and counts and pages agree; the counts are sums of the few inbox_counts rows the
 * trail writes keep (issue 31: they were a count of every open trail on every call).
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB, TrailTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, type PageKey } from './paging.js';
import { OPEN_TRAIL_STATUSES, type OpenTrailStatus, type TrailStatus } from '../enums.js';

export const INBOX_REASONS = ['started_by_me', 'transferred', 'human_required'] as const;
export type InboxReason = (typeof INBOX_REASONS)[number];

export interface InboxWho extends Visibility {
  principalId: string;
  /** People may act on transferred and human_required steps; agents only on their own trails' other steps. */
  isPerson: boolean;
}

export interface InboxFilter {
  flowId?: string;
  status?: OpenTrailStatus;
  reason?: InboxReason;
}

type Eb = ExpressionBuilder<DB, 'trails'>;

/**
 * The open statuses and needs_person as literals, as the partial indexes of migration 015 state them. SQLite matches
 * a partial index's condition to the query's terms; given a bound parameter instead, it can only by preparing the
 * statement again for each value bound, at every call (the store keeps its statements prepared: sqlite.ts).
 */
const isOpen = sql<SqlBool>`${sql.ref('trails.status')} in (${sql.join(OPEN_TRAIL_STATUSES.map((s) => sql.lit(s)))})`;
const needsPerson = (eb: Eb) => eb('trails.needs_person', '=', sql.lit(1));
const notNeedingPerson = (eb: Eb) => eb('trails.needs_person', '=', sql.lit(0));

/** Each reason as a condition on a trails row. needs_person is 1 exactly on an open trail an agent may not act on. */
function reasonConditions(eb: Eb, who: InboxWho): Record<InboxReason, Expression<SqlBool>> {
  const nothing = sql<SqlBool>`1 = 0`;
  return {
    // An agent cannot act on a waiting trail nor on a human_required step (TrailsService.assertMayAct).
    started_by_me: who.isPerson ? eb('trails.started_by', '=', who.principalId) : eb.and([eb('trails.started_by', '=', who.principalId), notNeedingPerson(eb)]),
    transferred: who.isPerson ? eb.and([needsPerson(eb), eb('trails.status', '=', 'waiting_for_person')]) : nothing,
    human_required: who.isPerson ? eb.and([needsPerson(eb), eb('trails.status', '=', 'running')]) : nothing,
  };
}

/**
 * The inbox as index ranges, each read in the inbox's order (updated_at, id descending): the caller's own open
 * trails (trails_inbox_started) and, for a person, the trails that need one (trails_inbox_person), or their copies
 * by flow under a flow filter. A page merges them, so it reads about a page from each whatever the number of trails.
 */
function ranges(who: InboxWho, reason: InboxReason | undefined): Array<(eb: Eb) => Expression<SqlBool>> {
  if (reason) return [(eb) => reasonConditions(eb, who)[reason]];
  const mine = (eb: Eb) => reasonConditions(eb, who).started_by_me;
  return who.isPerson ? [mine, needsPerson] : [mine];
}

function inboxQuery(db: Db, who: InboxWho, filter: Omit<InboxFilter, 'reason'>) {
  let query = db.selectFrom('trails').where(visibleTo(who, 'trails')).where(isOpen);
  if (filter.status) query = query.where('trails.status', '=', filter.status);
  if (filter.flowId) query = query.where('trails.flow_id', '=', filter.flowId);
  return query;
}

export type InboxTrail = TrailTable & { reasons: InboxReason[] };

/** One page of the inbox, newest change first, each trail with every reason it is there for. */
export async function inboxPage(db: Db, who: InboxWho, filter: InboxFilter, page: { limit: number; cursor?: string }) {
  const fetch = async (after: PageKey | null, count: number) => {
    // Each range is read from its index in the inbox's order up to `count` rows; UNION keeps a trail in both once.
    const [first, ...more] = ranges(who, filter.reason).map((range) => {
      let query = inboxQuery(db, who, filter)
        .selectAll('trails')
        .select((eb) => {
          const c = reasonConditions(eb, who);
          return INBOX_REASONS.map((r) => eb.case().when(c[r]).then(1).else(0).end().as(`is_${r}`));
        })
        .where(range);
      if (after) query = query.where((eb) => afterKey(eb, after, ['trails.updated_at', 'trails.id']));
      return db.selectFrom(query.orderBy('trails.updated_at', 'desc').orderBy('trails.id', 'desc').limit(count).as('range')).selectAll();
    });
    const union = more.reduce((all, next) => all.union(next), first);
    return db.selectFrom(union.as('inbox')).selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  const result = await keysetPage(fetch, () => true, page.limit, page.cursor);
  const rows: InboxTrail[] = result.rows.map((row) => {
    const { is_started_by_me, is_transferred, is_human_required, ...trail } = row;
    const flags: Record<InboxReason, unknown> = { started_by_me: is_started_by_me, transferred: is_transferred, human_required: is_human_required };
    return { ...trail, reasons: INBOX_REASONS.filter((r) => Number(flags[r]) === 1) };
  });
  return { rows, next_cursor: result.next_cursor };
}

/** The columns of a trail that place it in a group of inbox_counts. */
export type Counted = Pick<TrailTable, 'account_id' | 'scope_id' | 'flow_id' | 'started_by' | 'status' | 'needs_person'>;

/** A group's key as migration 015 writes it too: its parts joined by '|' (ids are UUIDs), no scope as ''. */
function countKey(t: Counted, startedBy: string): string {
  return [t.account_id, t.scope_id ?? '', t.flow_id, startedBy, t.status, String(Number(t.needs_person))].join('|');
}

/** The groups an open trail counts in: its starter's, and when it needs a person the group of every starter (''). */
function groupsOf(t: Counted | null): Map<string, string> {
  if (!t || !(OPEN_TRAIL_STATUSES as readonly TrailStatus[]).includes(t.status)) return new Map();
  const groups = new Map([[countKey(t, t.started_by), t.started_by]]);
  if (Number(t.needs_person) === 1) groups.set(countKey(t, ''), '');
  return groups;
}

/**
 * Moves a trail from the groups it counted in before a change to those it counts in after it (null: it did not
 * exist). Called with every write of a trail's row, in its transaction. The rows are written in key order, so two
 * transactions that both move trails between the same two groups wait for each other instead of deadlocking.
 */
export async function shiftInboxCounts(q: Db | Tx, before: Counted | null, after: Counted | null): Promise<void> {
  const from = groupsOf(before);
  const to = groupsOf(after);
  const deltas = new Map<string, { trail: Counted; startedBy: string; delta: number }>();
  for (const [key, startedBy] of from) if (!to.has(key)) deltas.set(key, { trail: before as Counted, startedBy, delta: -1 });
  for (const [key, startedBy] of to) if (!from.has(key)) deltas.set(key, { trail: after as Counted, startedBy, delta: 1 });
  for (const key of [...deltas.keys()].sort()) {
    const { trail, startedBy, delta } = deltas.get(key) as { trail: Counted; startedBy: string; delta: number };
    await q
      .insertInto('inbox_counts')
      .values({ id: key, account_id: trail.account_id, scope_id: trail.scope_id, flow_id: trail.flow_id, started_by: startedBy, status: trail.status, needs_person: Number(trail.needs_person), trails: delta })
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ trails: eb('inbox_counts.trails', '+', eb.ref('excluded.trails')) })))
      .execute();
  }
}

/** How many trails the inbox holds under the flow and status filters: in all, and for each reason. */
export async function inboxCounts(db: Db, who: InboxWho, filter: Omit<InboxFilter, 'reason'>): Promise<Record<InboxReason | 'total', number>> {
  let query = db
    .selectFrom('inbox_counts')
    .where(visibleTo(who, 'inbox_counts'))
    .where('inbox_counts.started_by', 'in', who.isPerson ? [who.principalId, ''] : [who.principalId]);
  if (filter.status) query = query.where('inbox_counts.status', '=', filter.status);
  if (filter.flowId) query = query.where('inbox_counts.flow_id', '=', filter.flowId);
  const rows = await query.select(['started_by', 'status', 'needs_person', 'trails']).execute();
  const counts = { total: 0, started_by_me: 0, transferred: 0, human_required: 0 };
  // Mine and needing a person: counted once in the total.
  let mineNeedingPerson = 0;
  for (const row of rows) {
    const n = Number(row.trails);
    const needs = Number(row.needs_person) === 1;
    if (row.started_by !== '') {
      if (who.isPerson || !needs) counts.started_by_me += n;
      if (needs) mineNeedingPerson += n;
    } else if (row.status === 'waiting_for_person') counts.transferred += n;
    else counts.human_required += n;
  }
  counts.total = counts.started_by_me + counts.transferred + counts.human_required - (who.isPerson ? mineNeedingPerson : 0);
  return counts;
}

/** The current steps of these trails: seq, bit, entry time, title and human_required as entered (no snapshot read). */
export async function currentSteps(db: Db, stepIds: string[]) {
  if (stepIds.length === 0) return [];
  return db.selectFrom('trail_steps').select(['id', 'seq', 'bit_id', 'entered_at', 'bit_title', 'human_required']).where('id', 'in', stepIds).execute();
}

/** The latest transfer of each of these steps (trail_events_step). */
export async function latestTransfers(db: Db, stepIds: string[]) {
  if (stepIds.length === 0) return new Map<string, { reason: string | null; principal_id: string | null; at: string }>();
  const rows = await db
    .selectFrom('trail_events')
    .select(['step_id', 'reason', 'principal_id', 'at'])
    .where('kind', '=', 'transfer')
    .where('step_id', 'in', stepIds)
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.step_id as string, { reason: r.reason, principal_id: r.principal_id, at: r.at }]));
}

export async function flowTitles(db: Db, flowIds: string[]): Promise<Map<string, string>> {
  if (flowIds.length === 0) return new Map();
  const rows = await db.selectFrom('flows').select(['id', 'title']).where('id', 'in', flowIds).execute();
  return new Map(rows.map((r) => [r.id, r.title]));
}
