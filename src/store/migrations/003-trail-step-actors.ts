import type { Kysely, Migration } from 'kysely';

/**
 * Who moved a trail step and when, beside what 001 records (answers already carry answered_by/at):
 * the principal that handed the step to a person (transfer_step) and the one that left it (advance_trail).
 */
export function trailStepActors(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('trail_steps').addColumn('transferred_by', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('transferred_at', 'text').execute();
      await db.schema.alterTable('trail_steps').addColumn('left_by', 'text').execute();
      await db.schema.createIndex('trails_account_updated').on('trails').columns(['account_id', 'updated_at', 'id']).execute();
      await db.schema.createIndex('trail_steps_trail').on('trail_steps').columns(['trail_id', 'seq']).execute();
    },
  };
}
