import { sql } from 'kysely';
import type { Db } from '../store.js';

export interface CounterState {
  points: number;
  resetsAt: number;
}

const state = (row: { points: number | string; resets_at: number | string }): CounterState => ({ points: Number(row.points), resetsAt: Number(row.resets_at) });

/** A counter's points in its current window, if it has a window still open at `now`. */
export async function readCounter(db: Db, key: string, now: number): Promise<CounterState | undefined> {
  const row = await db.selectFrom('shared_counters').select(['points', 'resets_at']).where('key', '=', key).executeTakeFirst();
  return row && Number(row.resets_at) > now ? state(row) : undefined;
}

/**
 * Adds `delta` points to a counter in one statement and answers its state: a window ended by `now` starts again
 * with these points and ends `windowMs` later. Processes adding at once each add theirs (the row's lock, or
 * SQLite's one writer, orders them).
 */
export async function addToCounter(db: Db, key: string, delta: number, now: number, windowMs: number): Promise<CounterState> {
  const result = await sql<{ points: number | string; resets_at: number | string }>`INSERT INTO shared_counters (key, points, resets_at) VALUES (${key}, ${delta}, ${now + windowMs})
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN shared_counters.resets_at <= ${now} THEN excluded.points ELSE shared_counters.points + excluded.points END,
      resets_at = CASE WHEN shared_counters.resets_at <= ${now} THEN excluded.resets_at ELSE shared_counters.resets_at END
    RETURNING points, resets_at`.execute(db);
  return state(result.rows[0] as { points: number | string; resets_at: number | string });
}

/** Forgets the counters whose window ended before `before`. */
export async function dropEndedCounters(db: Db, before: number): Promise<void> {
  await db.deleteFrom('shared_counters').where('resets_at', '<', before).execute();
}
