/**
 * The engines a test runs on: the embedded store always; PostgreSQL when WAYMARK_TEST_DATABASE_URL is set,
 * each test store in a fresh database of its own (dropped when the store closes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openStore, type Store } from '../src/store/store.js';

export type Engine = 'sqlite' | 'postgres';

export const ENGINES: Engine[] = process.env.WAYMARK_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestStore {
  store: Store;
  /** What a child process needs in its environment to open the same store. */
  env: Record<string, string>;
  close(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.WAYMARK_TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `migrate: false` leaves the store empty, as a first `waymark serve` finds it. */
export async function createTestStore(engine: Engine, options: { migrate?: boolean } = {}): Promise<TestStore> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-test-'));
    // Searches on reader threads, as `waymark serve` and `waymark stdio` run them.
    const store = openStore({ dataDir: dir, offThreadReads: true });
    if (options.migrate !== false) await store.migrate();
    return {
      store,
      env: { WAYMARK_DATA_DIR: dir },
      async close() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `waymark_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.WAYMARK_TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  const store = openStore({ databaseUrl: url.href });
  if (options.migrate !== false) await store.migrate();
  return {
    store,
    env: { WAYMARK_DATABASE_URL: url.href },
    async close() {
      await store.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
