import type { Kysely, Migration } from 'kysely';
import { jsonColumnType, type MigrationTarget } from './engine.js';

/**
 * The authorization server's records (issue 12), in the store so that a restart or a second `serve` keeps
 * them. One table holds every oidc-provider model (Client, Grant, AuthorizationCode, RefreshToken,
 * AccessToken, Session, Interaction, …), keyed by model and id, as that library's adapter interface
 * expects: the payload is the library's, the other columns are the lookups the interface asks for
 * (by grant for revocation, by uid for sessions) and the owner of a grant for a person's list.
 * oauth_secrets keeps the signing keys and cookie keys every process must share.
 */
export function oauthRecords(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', jsonColumnType(dialect), (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        // The principal a Grant, code or token acts for (oidc-provider's accountId).
        .addColumn('principal_id', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('consumed_at', 'text')
        .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
      await db.schema.createIndex('oauth_records_uid').on('oauth_records').column('uid').execute();
      await db.schema.createIndex('oauth_records_principal').on('oauth_records').columns(['principal_id', 'model']).execute();
      await db.schema
        .createTable('oauth_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', jsonColumnType(dialect), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
