import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * What happened to a trail besides answers and moves, one row per event, oldest first: every transfer_step
 * (the step's own columns from 001/003 hold only the last one, so a second transfer overwrote the first)
 * and cancel_trail (who, when, why). Transfers recorded before this migration are copied over.
 */
export function trailEvents(dialect: MigrationTarget): Migration {
  const serial = dialect.engine === 'postgres' ? 'bigserial' : 'integer';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trail_events')
        .addColumn('id', sql.raw(serial), (c) => (dialect.engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('trail_id', 'text', (c) => c.notNull().references('trails.id'))
        .addColumn('step_id', 'text', (c) => c.references('trail_steps.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        // Null only for transfers made before migration 003 recorded who made them.
        .addColumn('principal_id', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trail_events_trail').on('trail_events').columns(['trail_id', 'id']).execute();
      await sql`
        INSERT INTO trail_events (trail_id, step_id, kind, reason, principal_id, at)
        SELECT trail_id, id, 'transfer', transfer_reason, transferred_by, COALESCE(transferred_at, entered_at)
        FROM trail_steps WHERE transfer_reason IS NOT NULL ORDER BY trail_id, seq
      `.execute(db);
    },
  };
}
