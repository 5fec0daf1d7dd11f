import type { Kysely, Migration } from 'kysely';

/**
 * trail_steps_trail (trail_id, seq), made by 003, repeats the unique constraint trail_steps_seq on the same columns
 * (001): two copies of one index took most of the table's index space and doubled the cost of every step written
 * (issue 31). The constraint's index serves every lookup the other did.
 */
export function duplicateStepIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('trail_steps_trail').ifExists().execute();
    },
  };
}
