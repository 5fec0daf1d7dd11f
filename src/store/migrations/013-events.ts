import type { Kysely, Migration } from 'kysely';

/**
 * One event per accepted change (issue 26): an append-only log per account, the foundation that history, audit,
 * notifications and webhooks read. `seq` numbers an account's events from 1 without gaps; `hash` is the SHA-256 of
 * `prev_hash` (the account's previous event's hash, null for its first) and the event's own fields, so
 * `waymark audit verify` finds an edited or missing event. No code updates or deletes a row, so there are no
 * foreign keys: an event outlives what it names. `summary` is JSON as text on both engines, since the hash covers
 * it as written (jsonb would rewrite it).
 */
export function events(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text')
        // Who: a principal (person or agent), or the operator at the server's own command line (no principal).
        .addColumn('principal_id', 'text')
        .addColumn('principal_kind', 'text', (c) => c.notNull())
        .addColumn('token_id', 'text')
        .addColumn('client_name', 'text')
        // What.
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer')
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('prev_hash', 'text')
        .addColumn('hash', 'text', (c) => c.notNull())
        .addUniqueConstraint('events_account_seq', ['account_id', 'seq'])
        .execute();
      await db.schema.createIndex('events_resource').on('events').columns(['account_id', 'resource_type', 'resource_id', 'seq']).execute();
    },
  };
}
