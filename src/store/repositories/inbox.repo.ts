/**
 * The inbox's reads (issue 11): running and waiting trails whose current step waits for one principal. Why a
 * trail is in it is decided on the trail's own columns (needs_person, migration 015; step_assignee and step_group,
 * migration 017), so that a page is read from an index in the inbox's order and counts and pages agree; the counts
 * are sums of the few inbox_counts rows the trail writes keep (issue 31: they were a count of every open trail on
 * every call), and counts of the index ranges of steps assigned to the caller or offered to their groups.
 *
 * Views (issue 27): `mine` (my trails, steps assigned to or claimed by me, steps open to any person), `groups`
 * (steps offered to my groups, held or not), `everyone` (every open trail the caller can see; the service lets only
 * Admins ask for it). Sorted by last change (the indexes' order) or by due time: a range is then read whole from
 * its index and sorted (a person's ranges are their own trails, their assignments and their groups').
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB, TrailTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, type PageKey } from './paging.js';
import { OPEN_TRAIL_STATUSES, type OpenTrailStatus, type TrailStatus } from '../enums.js';

export const INBOX_REASONS = ['started_by_me', 'transferred', 'human_required', 'assigned_to_me', 'my_group'] as const;
export type InboxReason = (typeof INBOX_REASONS)[number];
export const INBOX_VIEWS = ['mine', 'groups', 'everyone'] as const;
export type InboxView = (typeof INBOX_VIEWS)[number];
export const INBOX_SORTS = ['updated', 'due'] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];

export interface InboxWho extends Visibility {
  principalId: string;
  /** People may act on transferred and human_required steps; agents only on their own trails' other steps. */
  isPerson: boolean;
  /** The groups the caller is a member of (none when not given). */
  groupIds?: string[];
}

export interface InboxFilter {
  flowId?: string;
  status?: OpenTrailStatus;
  reason?: InboxReason;
  view?: InboxView;
  sort?: InboxSort;
  /** Only steps due before this time (now: the overdue ones). */
  dueBefore?: string;
}

/** Where steps without a due time sort: after every due time (ISO text compares in time order). */
const NO_DUE = '9999-12-31T23:59:59.999Z';

type Eb = ExpressionBuilder<DB, 'trails'>;

/**
 * The open statuses and needs_person as literals, as the partial indexes of migration 015 state them. SQLite matches
 * a partial index's condition to the query's terms; given a bound parameter instead, it can only by preparing the
 * statement again for each value bound, at every call (the store keeps its statements prepared: sqlite.ts).
 */
const isOpen = sql<SqlBool>`${sql.ref('trails.status')} in (${sql.join(OPEN_TRAIL_STATUSES.map((s) => sql.lit(s)))})`;
/** needs_person 1: the step waits for any person (nobody named); 0: an agent may act; 2: it waits for its assignee. */
const needsPerson = (eb: Eb) => eb('trails.needs_person', '=', sql.lit(1));
const notNeedingPerson = (eb: Eb) => eb('trails.needs_person', '=', sql.lit(0));
const assignedToMe = (eb: Eb, who: InboxWho) => eb('trails.step_assignee', '=', who.principalId);
const callerGroups = (who: InboxWho) => (who.isPerson ? (who.groupIds ?? []) : []);
const offeredToMyGroups = (eb: Eb, who: InboxWho) => (callerGroups(who).length > 0 ? eb('trails.step_group', 'in', callerGroups(who)) : sql<SqlBool>`1 = 0`);

/** Each reason as a condition on a trails row. needs_person is 1 exactly on an open trail an agent may not act on. */
function reasonConditions(eb: Eb, who: InboxWho): Record<InboxReason, Expression<SqlBool>> {
  const nothing = sql<SqlBool>`1 = 0`;
  return {
    // An agent cannot act on a waiting trail nor on a human_required step (TrailsService.assertMayAct).
    started_by_me: who.isPerson ? eb('trails.started_by', '=', who.principalId) : eb.and([eb('trails.started_by', '=', who.principalId), notNeedingPerson(eb)]),
    transferred: who.isPerson ? eb.and([needsPerson(eb), eb('trails.status', '=', 'waiting_for_person')]) : nothing,
    human_required: who.isPerson ? eb.and([needsPerson(eb), eb('trails.status', '=', 'running')]) : nothing,
    assigned_to_me: assignedToMe(eb, who),
    my_group: offeredToMyGroups(eb, who),
  };
}

/**
 * The inbox as index ranges, each read in the inbox's order (updated_at, id descending): the caller's own open
 * trails (trails_inbox_started) and, for a person, the trails that need one (trails_inbox_person), or their copies
 * by flow under a flow filter. A page merges them, so it reads about a page from each whatever the number of trails.
 */
type Range = (eb: Eb) => Expression<SqlBool>;

/**
 * The trails needing any person, read without the open statuses' term: needs_person is 1 only on an open trail, and
 * with the term SQLite also finds migration 017's partial indexes of open trails usable and took one of them
 * (trails_inbox_group, then sorting every open trail of the account) over trails_inbox_person.
 */
const NEEDING_ANY_PERSON = Symbol('needs_person = 1');

function ranges(who: InboxWho, view: InboxView, reason: InboxReason | undefined): Array<Range | typeof NEEDING_ANY_PERSON> {
  if (reason) return [(eb) => eb.and([reasonConditions(eb, who)[reason], inView(eb, who, view)])];
  if (view === 'everyone') return [() => sql<SqlBool>`1 = 1`];
  // One range per group, each read from trails_inbox_group in the inbox's order.
  if (view === 'groups') return callerGroups(who).map((g) => (eb: Eb) => eb('trails.step_group', '=', g));
  const mine = (eb: Eb) => reasonConditions(eb, who).started_by_me;
  const assigned = (eb: Eb) => assignedToMe(eb, who);
  return who.isPerson ? [mine, NEEDING_ANY_PERSON, assigned] : [mine, assigned];
}

/** Whether an open trail is in the view (what a reason filter is narrowed by). */
function inView(eb: Eb, who: InboxWho, view: InboxView): Expression<SqlBool> {
  if (view === 'everyone') return sql<SqlBool>`1 = 1`;
  if (view === 'groups') return offeredToMyGroups(eb, who);
  const c = reasonConditions(eb, who);
  return eb.or([c.started_by_me, c.transferred, c.human_required, c.assigned_to_me]);
}

/** The due sort's key: the step's due time, none last. */
const dueKey = sql<string>`coalesce(${sql.ref('trails.step_due_at')}, ${sql.lit(NO_DUE)})`;

function inboxQuery(db: Db, who: InboxWho, filter: Omit<InboxFilter, 'reason'>, open: Expression<SqlBool> = isOpen) {
  let query = db.selectFrom('trails').where(visibleTo(who, 'trails')).where(open);
  if (filter.status) query = query.where('trails.status', '=', filter.status);
  if (filter.flowId) query = query.where('trails.flow_id', '=', filter.flowId);
  if (filter.dueBefore) query = query.where('trails.step_due_at', '<', filter.dueBefore);
  return query;
}

export type InboxTrail = TrailTable & { reasons: InboxReason[] };

/** One page of the inbox, newest change first (or soonest due first), each trail with every reason it is there for. */
export async function inboxPage(db: Db, who: InboxWho, filter: InboxFilter, page: { limit: number; cursor?: string }) {
  const byDue = filter.sort === 'due';
  const fetch = async (after: PageKey | null, count: number) => {
    const parts = ranges(who, filter.view ?? 'mine', filter.reason);
    if (parts.length === 0) return [];
    // Each range is read from its index up to `count` rows; UNION keeps a trail in several ranges once.
    const [first, ...more] = parts.map((range) => {
      const needing = range === NEEDING_ANY_PERSON;
      let query = inboxQuery(db, who, filter, needing ? sql<SqlBool>`1 = 1` : isOpen)
        .selectAll('trails')
        .select((eb) => {
          const c = reasonConditions(eb, who);
          return [...INBOX_REASONS.map((r) => eb.case().when(c[r]).then(1).else(0).end().as(`is_${r}`)), (byDue ? dueKey : sql<string>`${sql.ref('trails.updated_at')}`).as('sort_key')];
        })
        .where(needing ? needsPerson : range);
      if (after && byDue) query = query.where(sql<SqlBool>`(${dueKey}, ${sql.ref('trails.id')}) > (${after.updated_at}, ${after.id})`);
      else if (after) query = query.where((eb) => afterKey(eb, after, ['trails.updated_at', 'trails.id']));
      const ordered = byDue ? query.orderBy(dueKey).orderBy('trails.id') : query.orderBy('trails.updated_at', 'desc').orderBy('trails.id', 'desc');
      return db.selectFrom(ordered.limit(count).as('range')).selectAll();
    });
    const union = more.reduce((all, next) => all.union(next), first);
    const all = db.selectFrom(union.as('inbox')).selectAll();
    const rows = await (byDue ? all.orderBy('sort_key').orderBy('id') : all.orderBy('updated_at', 'desc').orderBy('id', 'desc')).limit(count).execute();
    // The page's key is the sort's: the cursor of a due-sorted page holds the due key.
    return rows.map((row) => ({ row, updated_at: row.sort_key, id: row.id }));
  };
  const result = await keysetPage(fetch, () => true, page.limit, page.cursor);
  const rows: InboxTrail[] = result.rows.map(({ row }) => {
    const { is_started_by_me, is_transferred, is_human_required, is_assigned_to_me, is_my_group, sort_key: _key, ...trail } = row;
    const flags: Record<InboxReason, unknown> = { started_by_me: is_started_by_me, transferred: is_transferred, human_required: is_human_required, assigned_to_me: is_assigned_to_me, my_group: is_my_group };
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

export type InboxCounts = Record<InboxReason | 'total' | 'mine' | 'groups', number> & { everyone: number | null };

/**
 * How many trails the inbox holds under the flow and status filters: in each view (everyone only for `admin`), for
 * each reason, and in all for the view asked for. From the kept groups of inbox_counts, and the index ranges of
 * steps assigned to the caller (trails_inbox_assignee) and offered to their groups (trails_inbox_group).
 */
export async function inboxCounts(db: Db, who: InboxWho, filter: Omit<InboxFilter, 'reason'>, admin = false): Promise<InboxCounts> {
  let query = db
    .selectFrom('inbox_counts')
    .where(visibleTo(who, 'inbox_counts'))
    .where('inbox_counts.started_by', 'in', who.isPerson ? [who.principalId, ''] : [who.principalId]);
  if (filter.status) query = query.where('inbox_counts.status', '=', filter.status);
  if (filter.flowId) query = query.where('inbox_counts.flow_id', '=', filter.flowId);
  const rows = await query.select(['started_by', 'status', 'needs_person', 'trails']).execute();
  const counts: InboxCounts = { total: 0, mine: 0, groups: 0, everyone: null, started_by_me: 0, transferred: 0, human_required: 0, assigned_to_me: 0, my_group: 0 };
  // Mine and needing any person: counted once in the total.
  let mineNeedingPerson = 0;
  for (const row of rows) {
    const n = Number(row.trails);
    const needs = Number(row.needs_person);
    if (row.started_by !== '') {
      if (who.isPerson || needs === 0) counts.started_by_me += n;
      if (needs === 1) mineNeedingPerson += n;
    } else if (row.status === 'waiting_for_person') counts.transferred += n;
    else counts.human_required += n;
  }
  // Steps assigned to me, and how many of them are in my started_by_me count already (an agent's: while it may act).
  const assigned = await inboxQuery(db, who, filter)
    .where('trails.step_assignee', '=', who.principalId)
    .select((eb) => {
      const counted = who.isPerson ? eb('trails.started_by', '=', who.principalId) : eb.and([eb('trails.started_by', '=', who.principalId), notNeedingPerson(eb)]);
      return [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>(eb.case().when(counted).then(1).else(0).end()).as('started')];
    })
    .executeTakeFirstOrThrow();
  counts.assigned_to_me = Number(assigned.n);
  // A step open to any person has nobody assigned: only my trails overlap the other two.
  counts.mine = counts.started_by_me + counts.transferred + counts.human_required + counts.assigned_to_me - (who.isPerson ? mineNeedingPerson : 0) - Number(assigned.started ?? 0);
  if (callerGroups(who).length > 0) {
    const grouped = await inboxQuery(db, who, filter).where('trails.step_group', 'in', callerGroups(who)).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts.groups = counts.my_group = Number(grouped.n);
  }
  if (admin) {
    let all = db.selectFrom('inbox_counts').where(visibleTo(who, 'inbox_counts')).where('inbox_counts.started_by', '<>', '');
    if (filter.status) all = all.where('inbox_counts.status', '=', filter.status);
    if (filter.flowId) all = all.where('inbox_counts.flow_id', '=', filter.flowId);
    const sum = await all.select((eb) => eb.fn.coalesce(eb.fn.sum<number>('trails'), eb.lit(0)).as('n')).executeTakeFirstOrThrow();
    counts.everyone = Number(sum.n);
  }
  const view = filter.view ?? 'mine';
  counts.total = view === 'groups' ? counts.groups : view === 'everyone' ? (counts.everyone ?? 0) : counts.mine;
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
