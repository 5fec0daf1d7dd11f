import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * The reads a person or agent makes often, served by indexes and maintained columns instead of scans (issue 31):
 *
 * - trail_steps.human_required: the step's bit was human_required as the trail entered it. The inbox read it out
 *   of every open trail's snapshot JSON (a snapshot can be megabytes).
 * - trails.needs_person: 1 while the trail is open and its current step waits for a person (handed to one, or
 *   human_required while running), 0 otherwise. Written with the change in its transaction; the inbox filters on
 *   it through trails_inbox_person, and on a starter's open trails through trails_inbox_started (each with a copy
 *   by flow, for the inbox of one flow). Partial: they hold the open trails only.
 * - inbox_counts: how many open trails each group holds (account, scope, flow, starter, status, needs_person),
 *   and, under the starter '', how many of a group need a person whoever started them: the inbox's counts are a
 *   sum over a few of these rows, not a count of every open trail on every call.
 * - trail_participants: who started, answered, left a step of, handed over or cancelled each trail, with the
 *   trail's updated_at, so that "my trails" (list_trails by principal) is one index range in the list's order
 *   instead of three scans of every answer, step and event.
 * - trail_events_step: the inbox reads the latest transfer of each current step by step_id.
 * - trails_flow_updated: one flow's trails in the lists' order, for list_trails by flow (a filter on
 *   trails_account_updated read every trail of the other flows on the way).
 * - flows_account_updated: list_flows pages by (updated_at, id) as bits and trails do.
 *
 * The queries state the partial indexes' conditions with the same constants, as literals (inbox.repo.ts).
 */
export function trailReads(target: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('trail_steps').addColumn('human_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      // A step sharing an earlier step's snapshot (008) reads it from that step.
      const snapshotHumanRequired =
        target.engine === 'postgres' ? sql`(h.bit_snapshot -> 'human_required') = 'true'::jsonb` : sql`json_type(h.bit_snapshot, '$.human_required') = 'true'`;
      await sql`UPDATE trail_steps SET human_required = 1 WHERE id IN (
        SELECT s.id FROM trail_steps s JOIN trail_steps h ON h.id = COALESCE(s.snapshot_step_id, s.id) WHERE ${snapshotHumanRequired})`.execute(db);

      await db.schema.alterTable('trails').addColumn('needs_person', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`UPDATE trails SET needs_person = 1 WHERE status = 'waiting_for_person'
        OR (status = 'running' AND EXISTS (SELECT 1 FROM trail_steps s WHERE s.id = trails.current_step_id AND s.human_required = 1))`.execute(db);
      await db.schema
        .createIndex('trails_inbox_started')
        .on('trails')
        .columns(['account_id', 'started_by', 'updated_at', 'id'])
        .where(sql<boolean>`status IN ('running', 'waiting_for_person')`)
        .execute();
      await db.schema.createIndex('trails_inbox_person').on('trails').columns(['account_id', 'updated_at', 'id']).where(sql<boolean>`needs_person = 1`).execute();
      // The inbox of one flow: the same two ranges within the flow.
      await db.schema
        .createIndex('trails_inbox_started_flow')
        .on('trails')
        .columns(['account_id', 'started_by', 'flow_id', 'updated_at', 'id'])
        .where(sql<boolean>`status IN ('running', 'waiting_for_person')`)
        .execute();
      await db.schema.createIndex('trails_inbox_person_flow').on('trails').columns(['account_id', 'flow_id', 'updated_at', 'id']).where(sql<boolean>`needs_person = 1`).execute();
      await db.schema.createIndex('trails_flow_updated').on('trails').columns(['account_id', 'flow_id', 'updated_at', 'id']).execute();

      await db.schema
        .createTable('inbox_counts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text')
        .addColumn('flow_id', 'text', (c) => c.notNull())
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('needs_person', 'integer', (c) => c.notNull())
        .addColumn('trails', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('inbox_counts_starter').on('inbox_counts').columns(['account_id', 'started_by']).execute();
      // The group's key as the live code writes it (inbox.repo.ts countKey): its parts joined by '|', no scope ''.
      const key = (startedBy: RawBuilder<unknown>) =>
        sql`account_id || '|' || COALESCE(scope_id, '') || '|' || flow_id || '|' || ${startedBy} || '|' || status || '|' || CAST(needs_person AS TEXT)`;
      await sql`INSERT INTO inbox_counts (id, account_id, scope_id, flow_id, started_by, status, needs_person, trails)
        SELECT ${key(sql`started_by`)}, account_id, scope_id, flow_id, started_by, status, needs_person, COUNT(*)
        FROM trails WHERE status IN ('running', 'waiting_for_person')
        GROUP BY account_id, scope_id, flow_id, started_by, status, needs_person`.execute(db);
      await sql`INSERT INTO inbox_counts (id, account_id, scope_id, flow_id, started_by, status, needs_person, trails)
        SELECT ${key(sql`''`)}, account_id, scope_id, flow_id, '', status, needs_person, COUNT(*)
        FROM trails WHERE needs_person = 1
        GROUP BY account_id, scope_id, flow_id, status, needs_person`.execute(db);

      await db.schema
        .createTable('trail_participants')
        .addColumn('trail_id', 'text', (c) => c.notNull().references('trails.id'))
        .addColumn('principal_id', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('trail_participants_pk', ['trail_id', 'principal_id'])
        .execute();
      await sql`INSERT INTO trail_participants (trail_id, principal_id, updated_at)
        SELECT p.trail_id, p.principal_id, t.updated_at FROM (
          SELECT id AS trail_id, started_by AS principal_id FROM trails
          UNION SELECT trail_id, answered_by FROM trail_answers
          UNION SELECT trail_id, left_by FROM trail_steps WHERE left_by IS NOT NULL
          UNION SELECT trail_id, principal_id FROM trail_events WHERE principal_id IS NOT NULL
        ) p JOIN trails t ON t.id = p.trail_id`.execute(db);
      await db.schema.createIndex('trail_participants_principal').on('trail_participants').columns(['principal_id', 'updated_at', 'trail_id']).execute();

      await db.schema.createIndex('trail_events_step').on('trail_events').columns(['step_id']).execute();
      await db.schema.createIndex('flows_account_updated').on('flows').columns(['account_id', 'updated_at', 'id']).execute();
    },
  };
}
