import type { Kysely, Migration } from 'kysely';

/**
 * Sign-in without passwords (issue 11): one-time links and the sessions they open. Both secrets are random
 * (node:crypto) and kept only as their SHA-256, as tokens are. A link is used at most once (used_at); a session
 * ends when idle too long, when its absolute lifetime is over, or when revoked (revoked_at).
 */
export function signinSessions(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('signin_links')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('capabilities', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('signin_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('principal_id', 'text', (c) => c.notNull().references('principals.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('capabilities', 'text', (c) => c.notNull())
        // The HMAC key csrf-csrf signs this session's CSRF tokens with: per session, so that any number of
        // processes serving the same store accept each other's tokens without a shared configured secret.
        .addColumn('csrf_secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('signin_sessions_principal').on('signin_sessions').columns(['principal_id']).execute();
    },
  };
}
