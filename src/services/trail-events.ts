/**
 * The trail_events table (migration 004): every transfer_step and the cancel_trail of a trail, oldest first.
 * Its row type and queries sit here, beside the one service that uses them, and reach the table through
 * Kysely's `withTables`; they belong in store/schema.ts and store/repositories/trails.repo.ts.
 */
import type { Generated, Kysely } from 'kysely';
import type { DB } from '../store/schema.js';

export type TrailEventKind = 'transfer' | 'cancel';

export interface TrailEventTable {
  id: Generated<number>;
  trail_id: string;
  step_id: string | null;
  kind: TrailEventKind;
  reason: string | null;
  /** Null only for transfers made before migration 003 recorded who made them. */
  principal_id: string | null;
  at: string;
}

export interface TrailEvent {
  step_id: string | null;
  kind: TrailEventKind;
  reason: string | null;
  principal_id: string | null;
  at: string;
}

/** A Db or a Tx (a Transaction is a Kysely) with the events table in its type. */
const withEvents = (q: Kysely<DB>) => q.withTables<{ trail_events: TrailEventTable }>();

export async function insertTrailEvent(q: Kysely<DB>, trailId: string, event: TrailEvent): Promise<void> {
  await withEvents(q)
    .insertInto('trail_events')
    .values({ trail_id: trailId, ...event })
    .execute();
}

/** Every event of a trail, oldest first. */
export async function trailEventsOf(q: Kysely<DB>, trailId: string): Promise<TrailEvent[]> {
  return withEvents(q).selectFrom('trail_events').select(['step_id', 'kind', 'reason', 'principal_id', 'at']).where('trail_id', '=', trailId).orderBy('id').execute();
}
