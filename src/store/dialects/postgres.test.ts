import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaymarkError } from '../../errors.js';
import { openStore, type Store } from '../store.js';

const ADMIN_URL = process.env.WAYMARK_TEST_DATABASE_URL;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(!ADMIN_URL)('PostgreSQL statement timeout', () => {
  const name = `waymark_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  let store: Store;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL as string);
    url.pathname = `/${name}`;
    store = openStore({ databaseUrl: url.href, statementTimeoutMs: 200 });
  });
  afterAll(async () => {
    await store.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('runs the migrations on a connection of their own, without the timeout', async () => {
    // The whole schema in one go, and a statement that outlasts the query connections' timeout.
    const result = await store.dialect.withMigrationKysely(store.db, async (db) => {
      await sql`SELECT pg_sleep(0.3)`.execute(db);
      return store.migrate();
    });
    expect(result.error).toBeUndefined();
  });

  it('stops a statement that runs past it and answers QUERY_TIMEOUT, then serves the next one on the same pool', async () => {
    const error = await sql`SELECT pg_sleep(2)`.execute(store.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaymarkError);
    expect((error as WaymarkError).code).toBe('QUERY_TIMEOUT');
    expect((error as WaymarkError).status).toBe(503);
    expect((error as WaymarkError).details).toEqual({ timeout_ms: 200 });
    // Inside a transaction as well (the store's retry loop does not run it again).
    const inTx = await store.transaction((tx) => sql`SELECT pg_sleep(2)`.execute(tx)).catch((e: unknown) => e);
    expect((inTx as WaymarkError).code).toBe('QUERY_TIMEOUT');
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(store.db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
