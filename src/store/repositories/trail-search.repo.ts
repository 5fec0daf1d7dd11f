/**
 * The Trails page's reads (issue 28): every trail a person may see, filtered and searched, and a flow's report.
 * They must stay fast at 100k trails (issue 31) with the indexes migrations 003, 015 and 017 made, and none more:
 *
 * - A page is read from one index range in the lists' order (updated_at, id descending): the account's
 *   (trails_account_updated), one flow's (trails_flow_updated), or for "waiting for me" the two partial ranges of
 *   the inbox (trails_inbox_assignee: open trails whose step is the caller's; trails_inbox_person: open trails
 *   whose step waits for a person and no one in particular). Those filters bound the range itself.
 * - The other filters (a status, who started it, when it started, the text) have no index of their own: a status
 *   filter on a rare status, or a text, would otherwise read every trail of the account to fill a page. So a page
 *   examines a window of at most LIMITS.trailSearchWindow rows of its range and tests them there; when the window
 *   ends before the page is full, the page answers what it found, how far back it looked (searched_back_to) and a
 *   cursor that continues from there. A person then narrows the range (a flow, a date range) or asks for more.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { OPEN_TRAIL_STATUSES, type TrailStatus } from '../enums.js';
import type { DB } from '../schema.js';
import type { Db } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { lowerText, type StoreDialect } from '../dialects/dialect.js';
import { afterKey, containsPattern, decodeCursor, encodeCursor, type PageKey } from './paging.js';

export interface TrailSearchFilter {
  flowId?: string;
  statuses?: readonly TrailStatus[];
  /** Only open trails whose current step waits for this principal (see `waitingRanges`). */
  waitingFor?: { principalId: string; isPerson: boolean };
  startedBy?: string;
  /** ISO UTC instants: started at or after `startedSince`, before `startedUntil`. */
  startedSince?: string;
  startedUntil?: string;
  /** Text the title or a value of the context holds, case-insensitive. */
  text?: string;
}

type Eb = ExpressionBuilder<DB, 'trails'>;

/**
 * "Waiting for me" as index ranges, disjoint: the open trails whose current step is the caller's (claimed or given
 * to them: trails.step_assignee, migration 017), and, for a person, the open trails whose step waits for a person
 * (handed over, or human_required: needs_person, migration 015) given to no one in particular. A step given to
 * someone else waits for them. The partial indexes' conditions are written as literals, as inbox.repo.ts explains.
 */
function waitingRanges(who: { principalId: string; isPerson: boolean }): Array<(eb: Eb) => Expression<SqlBool>> {
  const open = sql<SqlBool>`${sql.ref('trails.status')} in (${sql.join(OPEN_TRAIL_STATUSES.map((s) => sql.lit(s)))})`;
  const mine = (eb: Eb) => eb.and([open, eb('trails.step_assignee', '=', who.principalId)]);
  const anyPerson = (eb: Eb) => eb.and([eb('trails.needs_person', '=', sql.lit(1)), eb('trails.step_assignee', 'is', null)]);
  return who.isPerson ? [mine, anyPerson] : [mine];
}

/** The columns a window reads of each trail: what a row shows and what the other filters test. */
const WINDOWED = ['trails.id', 'trails.flow_id', 'trails.title', 'trails.status', 'trails.current_step_id', 'trails.started_by', 'trails.created_at', 'trails.updated_at', 'trails.due_at', 'trails.step_due_at', 'trails.archived_at'] as const;

/**
 * The window: at most `count` rows of the filter's index range after `after`, in the lists' order, with the columns
 * the page needs (the context too, for a text), so that the filters and the page read them there and no statement
 * joins back to trails (PostgreSQL hashed the whole table for such a join: 50 ms a page at 100k trails).
 */
function windowRows(db: Db, seen: Visibility, filter: TrailSearchFilter, after: PageKey | null, count: number) {
  const ranges: Array<((eb: Eb) => Expression<SqlBool>) | null> = filter.waitingFor ? waitingRanges(filter.waitingFor) : [null];
  const columns = filter.text ? [...WINDOWED, 'trails.context' as const] : WINDOWED;
  const [first, ...more] = ranges.map((range) => {
    let query = db.selectFrom('trails').select(columns).where(visibleTo(seen, 'trails'));
    if (filter.flowId) query = query.where('trails.flow_id', '=', filter.flowId);
    if (range) query = query.where(range);
    if (after) query = query.where((eb) => afterKey(eb, after, ['trails.updated_at', 'trails.id']));
    return db.selectFrom(query.orderBy('trails.updated_at', 'desc').orderBy('trails.id', 'desc').limit(count).as('r')).selectAll();
  });
  const union = more.reduce((all, next) => all.unionAll(next), first);
  return db.selectFrom(union.as('t')).selectAll().orderBy('t.updated_at', 'desc').orderBy('t.id', 'desc').limit(count);
}

/** The filters tested on the window's rows. */
function rowFilters(filter: TrailSearchFilter): Expression<SqlBool>[] {
  const parts: Expression<SqlBool>[] = [];
  if (filter.statuses && filter.statuses.length > 0) parts.push(sql<SqlBool>`${sql.ref('t.status')} in (${sql.join(filter.statuses)})`);
  if (filter.startedBy) parts.push(sql<SqlBool>`${sql.ref('t.started_by')} = ${filter.startedBy}`);
  if (filter.startedSince) parts.push(sql<SqlBool>`${sql.ref('t.created_at')} >= ${filter.startedSince}`);
  if (filter.startedUntil) parts.push(sql<SqlBool>`${sql.ref('t.created_at')} < ${filter.startedUntil}`);
  if (filter.text) {
    // The context is matched as its JSON text, the text written as JSON writes it inside a string (a quote as \",
    // a backslash as \\), so a value holding either is found too; the caller then keeps only the rows whose title
    // or a value holds it (not a key). Both engines write JSON's escapes in lower case (\u001f).
    const inJson = JSON.stringify(filter.text.toLowerCase()).slice(1, -1);
    parts.push(
      sql<SqlBool>`(${lowerText(sql.ref('t.title'))} like ${containsPattern(filter.text)} escape '\\' or ${lowerText(sql<string>`cast(${sql.ref('t.context')} as text)`)} like ${containsPattern(inJson)} escape '\\')`,
    );
  }
  return parts;
}

/** Whether the title or one of the context's values (at any depth; numbers and booleans as written) holds the text. */
export function holdsText(row: { title: string | null; context?: unknown }, text: string): boolean {
  const wanted = text.toLowerCase();
  const holds = (value: unknown): boolean => {
    if (value === null || value === undefined) return false;
    if (typeof value === 'object') return Object.values(value as Record<string, unknown>).some(holds);
    return String(value).toLowerCase().includes(wanted);
  };
  return (row.title ?? '').toLowerCase().includes(wanted) || holds(row.context);
}

export interface SearchRow {
  id: string;
  flow_id: string;
  title: string | null;
  status: TrailStatus;
  current_step_id: string | null;
  started_by: string;
  created_at: string;
  updated_at: string;
  due_at: string | null;
  step_due_at: string | null;
  archived_at: string | null;
}

export interface SearchPage {
  rows: SearchRow[];
  next_cursor: string | null;
  /** Set when the window ended before the page was full: the updated_at of the last trail examined. */
  searched_back_to: string | null;
}

/** One page of trails under the filter, newest change first, examining at most `window` rows (see the head). */
export async function searchTrails(
  db: Db,
  dialect: Pick<StoreDialect, 'parseJson'>,
  seen: Visibility,
  filter: TrailSearchFilter,
  page: { limit: number; cursor?: string; window: number },
): Promise<SearchPage> {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const filters = rowFilters(filter);
  let query = db
    .selectFrom(windowRows(db, seen, filter, after, page.window).as('t'))
    .selectAll()
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(page.limit + 1);
  if (filters.length > 0) query = query.where(sql<SqlBool>`${sql.join(filters, sql` and `)}`);
  const text = filter.text;
  const found = (await query.execute()).map((r) => ('context' in r ? { ...r, context: dialect.parseJson<unknown>(r.context) } : r)) as Array<SearchRow & { context?: unknown }>;
  if (found.length > page.limit) {
    const examined = found.slice(0, page.limit);
    const rows = text ? examined.filter((r) => holdsText(r, text)) : examined;
    return { rows: rows.map(listed), next_cursor: encodeCursor(examined[examined.length - 1]), searched_back_to: null };
  }
  const rows = (text ? found.filter((r) => holdsText(r, text)) : found).map(listed);
  // Every match in the window is on this page; if the window was full, older trails are still to be examined.
  // The window's last row, which exists only when the window was full.
  const edge = await db
    .selectFrom(windowRows(db, seen, { ...filter, text: undefined }, after, page.window).as('t'))
    .select(['t.id', 't.updated_at'])
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .offset(page.window - 1)
    .limit(1)
    .executeTakeFirst();
  if (!edge) return { rows, next_cursor: null, searched_back_to: null };
  return { rows, next_cursor: encodeCursor(edge), searched_back_to: edge.updated_at };
}

function listed(row: SearchRow & { context?: unknown }): SearchRow {
  const { context: _context, ...rest } = row;
  return rest;
}

/** The flow's `count` most recently changed trails that `seen` may see (trails_flow_updated), newest first. */
function recentTrails(db: Db, seen: Visibility, flowId: string, count: number) {
  return db
    .selectFrom('trails')
    .where(visibleTo(seen, 'trails'))
    .where('trails.flow_id', '=', flowId)
    .orderBy('trails.updated_at', 'desc')
    .orderBy('trails.id', 'desc')
    .limit(count);
}

/**
 * How many of the flow's `count` most recently changed trails are in each status. Bounded: no index holds a
 * trail's status by flow, so an exact count reads every trail of the flow (100 ms for a flow of 50k trails on
 * PostgreSQL); an index on trails (account_id, flow_id, status) would make the count of all of them cheap.
 */
export async function flowStatusCounts(db: Db, seen: Visibility, flowId: string, count: number): Promise<Map<TrailStatus, number>> {
  const rows = await db
    .selectFrom(recentTrails(db, seen, flowId, count).select('trails.status').as('r'))
    .select(['r.status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('r.status')
    .execute();
  return new Map(rows.map((r) => [r.status, Number(r.n)]));
}

export interface LeftStep {
  bit_id: string;
  bit_title: string | null;
  seq: number;
  entered_at: string;
  left_at: string;
}

/** Trails whose steps one statement reads (by trail_steps_trail). */
const STEP_READ_TRAILS = 500;

/**
 * The steps left in the flow's `trails` most recently changed trails that `seen` may see, at most `steps` of them,
 * the latest trails' first; no snapshot is read. The trails' ids first, then their steps by trail_id five hundred
 * trails at a time: joined in one statement, PostgreSQL hashed every step of every trail (240 ms at 100k trails).
 */
export async function recentLeftSteps(db: Db, seen: Visibility, flowId: string, bounds: { trails: number; steps: number }): Promise<{ steps: LeftStep[]; trails: number }> {
  const ids = (await recentTrails(db, seen, flowId, bounds.trails).select('trails.id').execute()).map((r) => r.id);
  const steps: LeftStep[] = [];
  for (let at = 0; at < ids.length && steps.length < bounds.steps; at += STEP_READ_TRAILS) {
    const chunk = ids.slice(at, at + STEP_READ_TRAILS);
    const rows = await db
      .selectFrom('trail_steps')
      .select(['trail_id', 'bit_id', 'bit_title', 'seq', 'entered_at', 'left_at'])
      .where('trail_id', 'in', chunk)
      .where('left_at', 'is not', null)
      .execute();
    const order = new Map(chunk.map((id, i) => [id, i]));
    rows.sort((a, b) => (order.get(a.trail_id) as number) - (order.get(b.trail_id) as number) || b.seq - a.seq);
    for (const { trail_id: _trail, ...step } of rows) if (steps.length < bounds.steps) steps.push(step as LeftStep);
  }
  return { steps, trails: ids.length };
}
