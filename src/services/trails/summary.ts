/**
 * A trail as a list names it (list_trails, the Trails page, its CSV): one mapping from the trail's row and its
 * current step's bit, so the two lists cannot drift apart.
 */
import type { SearchRow } from '../../store/repositories/trail-search.repo.js';
import { stepBits } from '../../store/repositories/trails.repo.js';
import type { Db } from '../../store/store.js';
import { nowIso } from '../clock.js';
import type { TrailSummary } from './shapes.js';
import { isOverdue } from './view.js';

/** The trail columns a summary reads: what searchTrails selects, and listTrails too. */
type SummaryRow = Omit<SearchRow, 'archived_at'> & { archived_at?: string | null };

export async function trailSummaries(db: Db, rows: SummaryRow[]): Promise<TrailSummary[]> {
  const stepIds = rows.map((t) => t.current_step_id).filter((id): id is string => id !== null);
  const steps = new Map((await stepBits(db, stepIds)).map((s) => [s.id, s]));
  const now = nowIso();
  return rows.map((t) => {
    const step = t.current_step_id ? steps.get(t.current_step_id) : undefined;
    return {
      trail_id: t.id,
      flow_id: t.flow_id,
      trail_title: t.title,
      status: t.status,
      current_bit_id: step?.bit_id ?? null,
      current_bit_title: step?.title ?? null,
      started_by: t.started_by,
      started_date_time_utc: t.created_at,
      last_modified_date_time_utc: t.updated_at,
      due_date_time_utc: t.due_at,
      step_due_date_time_utc: t.step_due_at,
      overdue: isOverdue(t.step_due_at, t.status, now) || isOverdue(t.due_at, t.status, now),
      archived_date_time_utc: t.archived_at ?? null,
    };
  });
}
