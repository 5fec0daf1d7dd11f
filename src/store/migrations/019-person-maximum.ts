import { sql, type Kysely, type Migration } from 'kysely';

/**
 * People and access in the app (issue 28).
 *
 * - principals.max_capabilities: the most any credential of the principal may carry (a sign-in session, a token,
 *   an OAuth grant), as a JSON array text of capability kinds (`author`, `read`, `run`: kinds, not branded names,
 *   so that the stored value does not depend on WAYMARK_BRAND). Existing principals get all three, so nothing
 *   changes for them; lowering it later cuts what their existing credentials do when they are used.
 * - principals.invited_by / invited_at: the Admin who invited the person from the app, and when (null for a
 *   principal made at the command line).
 */
export function personMaximum(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('principals').addColumn('max_capabilities', 'text', (c) => c.notNull().defaultTo(sql.lit('["author","read","run"]'))).execute();
      await db.schema.alterTable('principals').addColumn('invited_by', 'text').execute();
      await db.schema.alterTable('principals').addColumn('invited_at', 'text').execute();
    },
  };
}
