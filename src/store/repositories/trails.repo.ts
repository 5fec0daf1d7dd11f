import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';
import type { TrailAnswerTable, TrailEventKind, TrailStepTable, TrailTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, type PageKey } from './paging.js';
import { shiftInboxCounts } from './inbox.repo.js';

type Q = Db | Tx;

/** The trail, if `seen` may see it. */
export async function findTrail(q: Q, id: string, seen: Visibility) {
  return q.selectFrom('trails').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** The trail's row if `seen` may see it, locked for the rest of the transaction: one step change at a time per trail. */
export async function lockTrail(q: Tx, dialect: StoreDialect, id: string, seen: Visibility) {
  return dialect.forUpdate(q.selectFrom('trails').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

/** A new trail: its row, its place in the inbox's counts, and its starter as its first participant. */
export async function insertTrail(q: Tx, row: TrailTable): Promise<void> {
  await q.insertInto('trails').values(row).execute();
  await shiftInboxCounts(q, null, row);
  await q.insertInto('trail_participants').values({ trail_id: row.id, principal_id: row.started_by, updated_at: row.updated_at }).execute();
}

/** What a trail's write may change: its step and status, and (issue 27) its current step's assignee, group and due time. */
export type TrailChanges = Partial<Pick<TrailTable, 'status' | 'current_step_id' | 'updated_at' | 'needs_person' | 'step_assignee' | 'step_group' | 'step_due_at' | 'step_reminded'>>;

/**
 * A change of a trail, from its row as read under the trail's lock: the row, its place in the inbox's counts, and
 * its participants, who all carry the trail's new updated_at. `by`: the principal the change records (as starter,
 * answerer, who left a step, handed it over or cancelled), who joins them; null for a change that records no one
 * (answers submitted empty). With `fromStepId`, only while that is still its current step; whether it changed.
 * Every write of a trail goes through here, so the counts and the participants cannot drift from the rows.
 */
export async function changeTrail(q: Tx, before: TrailTable, changes: TrailChanges, by: string | null, fromStepId?: string): Promise<boolean> {
  let update = q.updateTable('trails').set(changes).where('id', '=', before.id);
  if (fromStepId !== undefined) update = update.where('current_step_id', '=', fromStepId);
  const result = await update.executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await shiftInboxCounts(q, before, { ...before, ...changes });
  const updatedAt = changes.updated_at ?? before.updated_at;
  // The starter joined at the start: a change by it that keeps updated_at leaves the participants as they are.
  if (updatedAt === before.updated_at && (by === null || by === before.started_by)) return true;
  // One statement, not an update and an insert: every participant takes the new updated_at and `by` joins them.
  // SQLite reads `ON CONFLICT` after a SELECT without WHERE as a join's ON: hence `WHERE 1 = 1`.
  const joining = by === null ? sql`` : sql`UNION SELECT ${before.id}, ${by}, ${updatedAt} WHERE 1 = 1`;
  await sql`INSERT INTO trail_participants (trail_id, principal_id, updated_at)
    SELECT trail_id, principal_id, ${updatedAt} FROM trail_participants WHERE trail_id = ${before.id} ${joining}
    ON CONFLICT (trail_id, principal_id) DO UPDATE SET updated_at = excluded.updated_at`.execute(q);
  return true;
}

export async function insertStep(q: Q, row: Insertable<TrailStepTable>): Promise<void> {
  await q.insertInto('trail_steps').values(row).execute();
}

export async function updateStep(q: Q, id: string, changes: Updateable<TrailStepTable>): Promise<void> {
  await q.updateTable('trail_steps').set(changes).where('id', '=', id).execute();
}

/** A step's row without its snapshot (a snapshot can be megabytes): what history and moves need. */
const STEP_COLUMNS = [
  'id',
  'trail_id',
  'seq',
  'bit_id',
  'bit_title',
  'entered_at',
  'left_at',
  'left_by_connection_id',
  'transfer_reason',
  'transferred_by',
  'transferred_at',
  'left_by',
  'snapshot_hash',
  'snapshot_step_id',
  'bit_revision',
  'human_required',
  'assignee_principal',
  'assignee_group',
  'due_at',
  'overdue_reminded',
] as const;

export type StepRow = Omit<TrailStepTable, 'bit_snapshot'>;

export async function findStep(q: Q, id: string): Promise<StepRow | undefined> {
  return q.selectFrom('trail_steps').select(STEP_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/**
 * The snapshot a step entered, from its account's store of snapshots (migration 018) by the step's hash. A step
 * older than 018 that shared an earlier step's snapshot carries that step's hash, so the same row answers it.
 */
export async function stepSnapshot(q: Q, step: Pick<StepRow, 'id'>): Promise<unknown> {
  const row = await q
    .selectFrom('trail_steps as s')
    .innerJoin('trails as t', 't.id', 's.trail_id')
    .innerJoin('step_snapshots as ss', (join) => join.onRef('ss.account_id', '=', 't.account_id').onRef('ss.hash', '=', 's.snapshot_hash'))
    .select('ss.snapshot')
    .where('s.id', '=', step.id)
    .executeTakeFirstOrThrow();
  return row.snapshot;
}

/** Whether the account holds a snapshot of this hash already (any trail of it entered one). */
export async function hasSnapshot(q: Q, accountId: string, hash: string): Promise<boolean> {
  const row = await q.selectFrom('step_snapshots').select('hash').where('account_id', '=', accountId).where('hash', '=', hash).executeTakeFirst();
  return row !== undefined;
}

/**
 * Stores a snapshot once per account. Two transactions storing the same one at once both succeed: the second waits
 * for the first's row (PostgreSQL) or its write lock (SQLite) and then does nothing.
 */
export async function storeSnapshot(q: Q, accountId: string, hash: string, json: unknown): Promise<void> {
  await q.insertInto('step_snapshots').values({ account_id: accountId, hash, snapshot: json }).onConflict((oc) => oc.columns(['account_id', 'hash']).doNothing()).execute();
}

/**
 * The bit of each of these steps, with the bit's current title: a light read for lists, which must not
 * parse snapshots (a body can be megabytes).
 */
export async function stepBits(q: Q, stepIds: string[]) {
  if (stepIds.length === 0) return [];
  return q
    .selectFrom('trail_steps as s')
    .leftJoin('bits as b', 'b.id', 's.bit_id')
    .select(['s.id', 's.bit_id', 'b.title'])
    .where('s.id', 'in', stepIds)
    .execute();
}

/** Every step of a trail in the order it ran, without snapshots. */
export async function stepsOf(q: Q, trailId: string): Promise<StepRow[]> {
  return q.selectFrom('trail_steps').select(STEP_COLUMNS).where('trail_id', '=', trailId).orderBy('seq').execute();
}

export async function insertAnswers(q: Q, rows: Array<Insertable<TrailAnswerTable>>): Promise<void> {
  if (rows.length === 0) return;
  await q.insertInto('trail_answers').values(rows).execute();
}

/** Every answer of a trail, oldest first (the last one per step and element counts). */
export async function answersOf(q: Q, trailId: string) {
  return q.selectFrom('trail_answers').selectAll().where('trail_id', '=', trailId).orderBy('id').execute();
}

/** Bytes of the answers stored on a step, and on its whole trail (value_bytes, migration 008). */
export async function answerBytes(q: Q, trailId: string, stepId: string): Promise<{ step: number; trail: number }> {
  const row = await q
    .selectFrom('trail_answers')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('step_id', '=', stepId).then(eb.ref('value_bytes')).else(0).end()), eb.lit(0)).as('step'),
      eb.fn.coalesce(eb.fn.sum<number>('value_bytes'), eb.lit(0)).as('trail'),
    ])
    .where('trail_id', '=', trailId)
    .executeTakeFirstOrThrow();
  return { step: Number(row.step), trail: Number(row.trail) };
}

export async function answersOfStep(q: Q, stepId: string) {
  return q.selectFrom('trail_answers').selectAll().where('step_id', '=', stepId).orderBy('id').execute();
}

export interface TrailListFilter {
  flowId?: string;
  status?: TrailTable['status'];
  /** Trails this principal started, answered on, handed over, advanced or cancelled: its participations. */
  principalId?: string;
  /** Archived trails too (archive.service.ts); without it they are left out. */
  includeArchived?: boolean;
}

/**
 * A page of trails, newest change first. By principal, the page is read from the principal's participations
 * (trail_participants_principal, in the same order: a participation carries its trail's updated_at), so it reads
 * about a page whatever the number of trails; it once tested every trail for an answer, a step or an event.
 */
export async function listTrails(q: Q, seen: Visibility, filter: TrailListFilter, page: { limit: number; cursor?: string }) {
  const listed = [visibleTo(seen, 'trails')];
  if (filter.flowId) listed.push(sql<SqlBool>`${sql.ref('trails.flow_id')} = ${filter.flowId}`);
  if (filter.status) listed.push(sql<SqlBool>`${sql.ref('trails.status')} = ${filter.status}`);
  // Archived trails are the oldest changes: the lists' index ranges reach them only past every live trail.
  if (!filter.includeArchived) listed.push(sql<SqlBool>`${sql.ref('trails.archived_at')} IS NULL`);
  const principal = filter.principalId;
  const fetch = (after: PageKey | null, count: number) => {
    if (principal) {
      let query = q.selectFrom('trail_participants as p').innerJoin('trails', 'trails.id', 'p.trail_id').selectAll('trails').where('p.principal_id', '=', principal).where((eb) => eb.and(listed));
      if (after) query = query.where((eb) => afterKey(eb, after, ['p.updated_at', 'p.trail_id']));
      return query.orderBy('p.updated_at', 'desc').orderBy('p.trail_id', 'desc').limit(count).execute();
    }
    let query = q.selectFrom('trails').selectAll().where((eb) => eb.and(listed));
    if (after) query = query.where((eb) => afterKey(eb, after));
    return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(count).execute();
  };
  return keysetPage(fetch, () => true, page.limit, page.cursor);
}

export interface TrailEvent {
  step_id: string | null;
  kind: TrailEventKind;
  reason: string | null;
  principal_id: string | null;
  at: string;
}

export async function insertTrailEvent(q: Q, trailId: string, event: TrailEvent): Promise<void> {
  await q.insertInto('trail_events').values({ trail_id: trailId, ...event }).execute();
}

/** Every event of a trail, oldest first. */
export async function trailEventsOf(q: Q, trailId: string): Promise<TrailEvent[]> {
  return q.selectFrom('trail_events').select(['step_id', 'kind', 'reason', 'principal_id', 'at']).where('trail_id', '=', trailId).orderBy('id').execute();
}
