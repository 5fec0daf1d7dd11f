/**
 * Steps and trails past their due time, not yet reminded (migration 017, issue 27): the overdue scheduler's
 * reads, served by the partial indexes trails_step_due and trails_due, and its claims. A claim is the reminder's
 * own state change, made conditionally: `step_reminded = 1 WHERE step_reminded = 0` on the very step and due time
 * that were read, so of several processes that read the same trail exactly one changes it (the others' updates
 * match no row), and a step left or re-timed meanwhile is not reminded for the old one.
 */
import { sql, type SqlBool } from 'kysely';
import { OPEN_TRAIL_STATUSES } from '../enums.js';
import type { TrailTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

/** The open statuses and the flags as literals, as the partial indexes state them (see inbox.repo.ts on partial indexes). */
const isOpen = sql<SqlBool>`${sql.ref('status')} in (${sql.join(OPEN_TRAIL_STATUSES.map((s) => sql.lit(s)))})`;
const flagUnset = (column: 'step_reminded' | 'due_reminded') => sql<SqlBool>`${sql.ref(column)} = ${sql.lit(0)}`;

export type OverdueTrail = Pick<TrailTable, 'id' | 'account_id' | 'flow_id' | 'title' | 'started_by' | 'current_step_id' | 'step_assignee' | 'step_group' | 'step_due_at' | 'due_at'>;

const COLUMNS = ['id', 'account_id', 'flow_id', 'title', 'started_by', 'current_step_id', 'step_assignee', 'step_group', 'step_due_at', 'due_at'] as const;

/** Open trails whose current step's due time has passed and was not reminded, the longest overdue first. */
export async function overdueSteps(q: Q, now: string, limit: number): Promise<OverdueTrail[]> {
  return q
    .selectFrom('trails')
    .select(COLUMNS)
    .where('step_due_at', 'is not', null)
    .where(flagUnset('step_reminded'))
    .where(isOpen)
    .where('step_due_at', '<=', now)
    .orderBy('step_due_at')
    .limit(limit)
    .execute();
}

/** Open trails whose own due time has passed and was not reminded, the longest overdue first. */
export async function overdueTrails(q: Q, now: string, limit: number): Promise<OverdueTrail[]> {
  return q
    .selectFrom('trails')
    .select(COLUMNS)
    .where('due_at', 'is not', null)
    .where(flagUnset('due_reminded'))
    .where(isOpen)
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/** Marks the step's reminder as recorded, if it is still the current step, still due then and not yet reminded; answers whether this call did. */
export async function claimStepReminder(q: Q, trail: OverdueTrail): Promise<boolean> {
  if (trail.current_step_id === null || trail.step_due_at === null) return false;
  const result = await q
    .updateTable('trails')
    .set({ step_reminded: 1 })
    .where('id', '=', trail.id)
    .where(flagUnset('step_reminded'))
    .where(isOpen)
    .where('current_step_id', '=', trail.current_step_id)
    .where('step_due_at', '=', trail.step_due_at)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await q.updateTable('trail_steps').set({ overdue_reminded: 1 }).where('id', '=', trail.current_step_id).where('trail_id', '=', trail.id).execute();
  return true;
}

/** Marks the trail's reminder as recorded, if it is still open, still due then and not yet reminded; answers whether this call did. */
export async function claimTrailReminder(q: Q, trail: OverdueTrail): Promise<boolean> {
  if (trail.due_at === null) return false;
  const result = await q
    .updateTable('trails')
    .set({ due_reminded: 1 })
    .where('id', '=', trail.id)
    .where(flagUnset('due_reminded'))
    .where(isOpen)
    .where('due_at', '=', trail.due_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Titles a reminder names: the flow's, and the step's as the trail entered it. */
export async function reminderTitles(q: Q, trail: OverdueTrail): Promise<{ flow_title: string | null; step_title: string | null }> {
  const flow = await q.selectFrom('flows').select('title').where('id', '=', trail.flow_id).where('account_id', '=', trail.account_id).executeTakeFirst();
  const step = trail.current_step_id ? await q.selectFrom('trail_steps').select('bit_title').where('id', '=', trail.current_step_id).where('trail_id', '=', trail.id).executeTakeFirst() : undefined;
  return { flow_title: flow?.title ?? null, step_title: step?.bit_title ?? null };
}
