import type { Kysely, Migration } from 'kysely';

/**
 * A token can be revoked (`waymark token revoke`): the time it was, null while it is valid. A revoked token
 * is refused like an unknown one; its row stays, so `waymark token list` still shows it and when it ended.
 */
export function tokenRevocation(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tokens').addColumn('revoked_at', 'text').execute();
    },
  };
}
