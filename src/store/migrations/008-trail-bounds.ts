import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * Trails that stay small (issue 16, finding 7).
 *
 * - trail_steps.snapshot_hash and snapshot_step_id: a step whose bit is, to the byte, what an earlier step of
 *   the same trail entered shares that step's snapshot instead of storing another copy: its bit_snapshot is the
 *   JSON null and snapshot_step_id names the step that holds it (a cycle over two bits of 7 MB stored 7 MB per
 *   advance). The column stays NOT NULL: SQLite cannot drop a NOT NULL without rebuilding the table.
 * - trail_steps.bit_title: the history names each step's bit without reading its snapshot.
 * - trail_answers.value_bytes: the stored JSON's size, so the answers of a step and of a trail can be bounded
 *   without reading them.
 */
export function trailBounds(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('trail_steps').addColumn('snapshot_hash', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('snapshot_step_id', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('bit_title', 'text').execute();
      await db.schema.alterTable('trail_answers').addColumn('value_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('trail_steps_snapshot').on('trail_steps').columns(['trail_id', 'snapshot_hash']).execute();
      await db.schema.createIndex('trail_answers_trail').on('trail_answers').columns(['trail_id']).execute();
      if (dialect.engine === 'postgres') {
        await sql`UPDATE trail_steps SET bit_title = bit_snapshot->>'title'`.execute(db);
        await sql`UPDATE trail_answers SET value_bytes = octet_length(value::text)`.execute(db);
      } else {
        await sql`UPDATE trail_steps SET bit_title = json_extract(bit_snapshot, '$.title')`.execute(db);
        await sql`UPDATE trail_answers SET value_bytes = length(CAST(value AS BLOB))`.execute(db);
      }
    },
  };
}
