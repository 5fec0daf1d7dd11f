import { createHash } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import { jsonColumnType, type MigrationTarget } from './engine.js';

/**
 * Storage that grows with what changed, and state several processes share (issue 31):
 *
 * - step_snapshots: each distinct snapshot of a bit as trails entered it, once per account, keyed by its sha256.
 *   Migration 008 shared a snapshot only within one trail, so 100k trails of one flow stored each bit's body 100k
 *   times. Every step's snapshot moves here and the step keeps only its hash (trail_steps.snapshot_hash); its
 *   bit_snapshot becomes the JSON null and snapshot_step_id is no longer used (SQLite cannot drop a NOT NULL or a
 *   column without rebuilding the table). Keyed by account, so that no account's trail reads another's content and
 *   an account's records stay its own.
 * - trail_steps_snapshot (trail_id, snapshot_hash), 008's lookup of a trail's earlier snapshot, goes: the lookup is
 *   step_snapshots' primary key now.
 * - trails.archived_at: a completed or cancelled trail archived by age (services/trails/archive.service.ts); it
 *   leaves list_trails by default and stays readable (get_trail, its steps, answers, events and history). The
 *   partial index holds exactly the trails the archiver may still take, oldest change first.
 * - shared_counters: request rates counted across every server process on the store (http/rate-limit.ts), one row
 *   a key: the points of the current window and when it ends (ms since the epoch).
 */
export function scaleStorage(target: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('step_snapshots')
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('snapshot', jsonColumnType(target), (c) => c.notNull())
        .addPrimaryKeyConstraint('step_snapshots_pk', ['account_id', 'hash'])
        .execute();

      // Steps older than 008 have no hash: theirs, from the stored JSON as this engine hands it back.
      const raw = db as Kysely<{ trail_steps: { id: string; bit_snapshot: unknown; snapshot_hash: string | null } }>;
      for (;;) {
        const rows = await raw.selectFrom('trail_steps').select(['id', 'bit_snapshot']).where('snapshot_hash', 'is', null).limit(500).execute();
        if (rows.length === 0) break;
        for (const row of rows) {
          const text = typeof row.bit_snapshot === 'string' ? row.bit_snapshot : JSON.stringify(row.bit_snapshot);
          await raw.updateTable('trail_steps').set({ snapshot_hash: createHash('sha256').update(text).digest('hex') }).where('id', '=', row.id).execute();
        }
      }
      // The holders' snapshots (a sharing step carries its holder's hash already). SQLite reads ON CONFLICT after a
      // SELECT without WHERE as a join's ON: the WHERE is needed on both engines' statement anyway.
      await sql`INSERT INTO step_snapshots (account_id, hash, snapshot)
        SELECT t.account_id, s.snapshot_hash, s.bit_snapshot FROM trail_steps s JOIN trails t ON t.id = s.trail_id
        WHERE s.snapshot_step_id IS NULL
        ON CONFLICT (account_id, hash) DO NOTHING`.execute(db);
      const jsonNull = target.engine === 'postgres' ? sql`'null'::jsonb` : sql`'null'`;
      await sql`UPDATE trail_steps SET bit_snapshot = ${jsonNull}, snapshot_step_id = NULL`.execute(db);
      await db.schema.dropIndex('trail_steps_snapshot').ifExists().execute();

      await db.schema.alterTable('trails').addColumn('archived_at', 'text').execute();
      await db.schema
        .createIndex('trails_archivable')
        .on('trails')
        .columns(['updated_at', 'id'])
        .where(sql<boolean>`archived_at IS NULL AND status IN ('completed', 'cancelled')`)
        .execute();

      await db.schema
        .createTable('shared_counters')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('resets_at', target.engine === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shared_counters_resets').on('shared_counters').columns(['resets_at']).execute();
    },
  };
}
