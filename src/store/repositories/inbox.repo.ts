/**
 * The inbox's reads (issue 11): running and waiting trails whose current step waits for one principal. Why a
 * trail is in it is decided in SQL, so that counts and pages agree; a step's title and human_required flag are
 * read from its snapshot (the bit as the trail entered it, what the trail tools act on) without loading it.
 */
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';
import type { DB, TrailTable } from '../schema.js';
import type { Db } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage } from './paging.js';
import { OPEN_TRAIL_STATUSES, type OpenTrailStatus } from '../enums.js';

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

/** Each reason as a condition on a trails row. */
function reasonConditions(eb: Eb, dialect: StoreDialect, who: InboxWho): Record<InboxReason, Expression<SqlBool>> {
  // A step that shares an earlier step's snapshot (migration 008) reads it from that step.
  const humanRequired = eb.exists(
    eb
      .selectFrom('trail_steps as s')
      .innerJoin('trail_steps as h', (join) => join.on((j) => j('h.id', '=', j.fn.coalesce('s.snapshot_step_id', 's.id'))))
      .select('s.id')
      .whereRef('s.id', '=', 'trails.current_step_id')
      .where(() => dialect.jsonTrue('h.bit_snapshot', 'human_required')),
  );
  const nothing = sql<SqlBool>`1 = 0`;
  return {
    // An agent cannot act on a waiting trail nor on a human_required step (TrailsService.assertMayAct).
    started_by_me: who.isPerson
      ? eb('trails.started_by', '=', who.principalId)
      : eb.and([eb('trails.started_by', '=', who.principalId), eb('trails.status', '=', 'running'), eb.not(humanRequired)]),
    transferred: who.isPerson ? eb('trails.status', '=', 'waiting_for_person') : nothing,
    human_required: who.isPerson ? eb.and([eb('trails.status', '=', 'running'), humanRequired]) : nothing,
  };
}

function inboxQuery(db: Db, dialect: StoreDialect, who: InboxWho, filter: Omit<InboxFilter, 'reason'>) {
  let query = db.selectFrom('trails').where(visibleTo(who, 'trails'));
  query = query.where('trails.status', 'in', filter.status ? [filter.status] : [...OPEN_TRAIL_STATUSES]);
  if (filter.flowId) query = query.where('trails.flow_id', '=', filter.flowId);
  return query;
}

export type InboxTrail = TrailTable & { reasons: InboxReason[] };

/** One page of the inbox, newest change first, each trail with every reason it is there for. */
export async function inboxPage(db: Db, dialect: StoreDialect, who: InboxWho, filter: InboxFilter, page: { limit: number; cursor?: string }) {
  const fetch = async (after: { updated_at: string; id: string } | null, count: number) => {
    let query = inboxQuery(db, dialect, who, filter)
      .selectAll('trails')
      .select((eb) => {
        const c = reasonConditions(eb, dialect, who);
        return INBOX_REASONS.map((r) => eb.case().when(c[r]).then(1).else(0).end().as(`is_${r}`));
      })
      .where((eb) => {
        const c = reasonConditions(eb, dialect, who);
        return filter.reason ? c[filter.reason] : eb.or(INBOX_REASONS.map((r) => c[r]));
      });
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('trails.updated_at', 'desc').orderBy('trails.id', 'desc').limit(count).execute();
  };
  const result = await keysetPage(fetch, () => true, page.limit, page.cursor);
  const rows: InboxTrail[] = result.rows.map((row) => {
    const { is_started_by_me, is_transferred, is_human_required, ...trail } = row;
    const flags: Record<InboxReason, unknown> = { started_by_me: is_started_by_me, transferred: is_transferred, human_required: is_human_required };
    return { ...trail, reasons: INBOX_REASONS.filter((r) => Number(flags[r]) === 1) };
  });
  return { rows, next_cursor: result.next_cursor };
}

/** How many trails the inbox holds under the flow and status filters: in all, and for each reason. */
export async function inboxCounts(db: Db, dialect: StoreDialect, who: InboxWho, filter: Omit<InboxFilter, 'reason'>): Promise<Record<InboxReason | 'total', number>> {
  const row = await inboxQuery(db, dialect, who, filter)
    .select((eb) => {
      const c = reasonConditions(eb, dialect, who);
      const count = (condition: Expression<SqlBool>) => eb.fn.sum<number | string>(eb.case().when(condition).then(1).else(0).end());
      return [
        count(eb.or(INBOX_REASONS.map((r) => c[r]))).as('total'),
        count(c.started_by_me).as('started_by_me'),
        count(c.transferred).as('transferred'),
        count(c.human_required).as('human_required'),
      ];
    })
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL; PostgreSQL answers a bigint sum as text.
  return { total: Number(row.total ?? 0), started_by_me: Number(row.started_by_me ?? 0), transferred: Number(row.transferred ?? 0), human_required: Number(row.human_required ?? 0) };
}

/** The current steps of these trails: seq, bit, entry time, and the snapshot's title and human_required. */
export async function currentSteps(db: Db, dialect: StoreDialect, stepIds: string[]) {
  if (stepIds.length === 0) return [];
  return db
    .selectFrom('trail_steps as s')
    // A step that shares an earlier step's snapshot (migration 008) reads it from that step.
    .innerJoin('trail_steps as h', (join) => join.on((j) => j('h.id', '=', j.fn.coalesce('s.snapshot_step_id', 's.id'))))
    .select((eb) => [
      's.id',
      's.seq',
      's.bit_id',
      's.entered_at',
      dialect.jsonText('h.bit_snapshot', 'title').as('bit_title'),
      eb.case().when(dialect.jsonTrue('h.bit_snapshot', 'human_required')).then(1).else(0).end().as('human_required'),
    ])
    .where('s.id', 'in', stepIds)
    .execute();
}

/** The latest transfer of each of these steps. */
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
