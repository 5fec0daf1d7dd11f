import type { Kysely, Migration } from 'kysely';

/**
 * Webhooks (issue 29). The outbox is the event log itself (migration 013): an event is written in its change's
 * transaction, so an endpoint needs only a cursor over its account's events (`cursor_seq`: delivered through) to
 * send each accepted change at least once and in order. One deliverer at a time holds an endpoint (`lease_id`
 * until `leased_until`); a failing head event waits `next_attempt_at` (backoff) and counts `head_attempts`.
 * The delivery log keeps every attempt. The signing secret is kept to sign with (it is a key, not a credential
 * the server checks), with the previous one during a rotation's overlap.
 */
export function webhooks(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('previous_secret', 'text')
        .addColumn('previous_secret_until', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('cursor_seq', 'integer', (c) => c.notNull())
        .addColumn('head_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('head_failing_since', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_id', 'text')
        .addColumn('leased_until', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_endpoints_account').on('webhook_endpoints').columns(['account_id', 'created_at']).execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_seq', 'integer', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('response_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('attempted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').columns(['endpoint_id', 'attempted_at']).execute();
    },
  };
}
