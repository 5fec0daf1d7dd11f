import { sql, type Insertable, type Updateable } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';
import type { TrailAnswerTable, TrailEventKind, TrailStepTable, TrailTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';
import { afterKey, keysetPage, type PageKey } from './paging.js';

type Q = Db | Tx;

/** The trail, if `seen` may see it. */
export async function findTrail(q: Q, id: string, seen: Visibility) {
  return q.selectFrom('trails').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** The trail's row if `seen` may see it, locked for the rest of the transaction: one step change at a time per trail. */
export async function lockTrail(q: Tx, dialect: StoreDialect, id: string, seen: Visibility) {
  return dialect.forUpdate(q.selectFrom('trails').selectAll().where('id', '=', id).where(visibleTo(seen))).executeTakeFirst();
}

export async function insertTrail(q: Q, row: Insertable<TrailTable>): Promise<void> {
  await q.insertInto('trails').values(row).execute();
}

export async function updateTrail(q: Q, id: string, changes: Updateable<TrailTable>): Promise<void> {
  await q.updateTable('trails').set(changes).where('id', '=', id).execute();
}

/** Moves a trail on from `fromStepId` only if that is still its current step; whether it moved. */
export async function moveTrail(q: Q, id: string, fromStepId: string, changes: Updateable<TrailTable>): Promise<boolean> {
  const result = await q.updateTable('trails').set(changes).where('id', '=', id).where('current_step_id', '=', fromStepId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
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
] as const;

export type StepRow = Omit<TrailStepTable, 'bit_snapshot'>;

export async function findStep(q: Q, id: string): Promise<StepRow | undefined> {
  return q.selectFrom('trail_steps').select(STEP_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The snapshot a step entered, read from the step that holds it (itself, or the earlier one it shares). */
export async function stepSnapshot(q: Q, step: Pick<StepRow, 'id' | 'snapshot_step_id'>): Promise<unknown> {
  const row = await q
    .selectFrom('trail_steps')
    .select('bit_snapshot')
    .where('id', '=', step.snapshot_step_id ?? step.id)
    .executeTakeFirstOrThrow();
  return row.bit_snapshot;
}

/** The step of this trail that holds a snapshot of this hash, if one does. */
export async function stepHoldingSnapshot(q: Q, trailId: string, hash: string): Promise<string | undefined> {
  const row = await q
    .selectFrom('trail_steps')
    .select('id')
    .where('trail_id', '=', trailId)
    .where('snapshot_hash', '=', hash)
    .where('snapshot_step_id', 'is', null)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
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
  /** Trails this principal started, answered on, handed over or advanced. */
  principalId?: string;
}

export async function listTrails(q: Q, seen: Visibility, filter: TrailListFilter, page: { limit: number; cursor?: string }) {
  const fetch = (after: PageKey | null, count: number) => {
    let query = q.selectFrom('trails').selectAll().where(visibleTo(seen));
    if (filter.flowId) query = query.where('flow_id', '=', filter.flowId);
    if (filter.status) query = query.where('status', '=', filter.status);
    const principal = filter.principalId;
    if (principal) {
      query = query.where((eb) =>
        eb.or([
          eb('started_by', '=', principal),
          eb.exists(
            eb.selectFrom('trail_answers as a').select(sql.lit(1).as('one')).whereRef('a.trail_id', '=', 'trails.id').where('a.answered_by', '=', principal),
          ),
          eb.exists(
            eb
              .selectFrom('trail_steps as s')
              .select(sql.lit(1).as('one'))
              .whereRef('s.trail_id', '=', 'trails.id')
              .where('s.left_by', '=', principal),
          ),
          // Who handed a step over or cancelled the trail (every transfer, not only a step's latest).
          eb.exists(eb.selectFrom('trail_events as e').select(sql.lit(1).as('one')).whereRef('e.trail_id', '=', 'trails.id').where('e.principal_id', '=', principal)),
        ]),
      );
    }
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
