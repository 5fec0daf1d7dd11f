/**
 * What a long-running deployment tunes (issue 31): the PostgreSQL pool's size (WAYMARK_PG_POOL_SIZE), the embedded
 * store's planner statistics (refreshed at open and after migrations), and the duplicate trail_steps index gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { openStore, storeOptionsFromEnv } from './store.js';

describe('store options from the environment', () => {
  it('take a pool size of 1 to 1000, and refuse anything else in words', () => {
    expect(storeOptionsFromEnv({ WAYMARK_PG_POOL_SIZE: '25' }).poolSize).toBe(25);
    expect(storeOptionsFromEnv({}).poolSize).toBeUndefined();
    for (const bad of ['0', '1001', 'many', '2.5']) expect(() => storeOptionsFromEnv({ WAYMARK_PG_POOL_SIZE: bad })).toThrow(`WAYMARK_PG_POOL_SIZE must be a whole number from 1 to 1000 (got ${bad})`);
  });
});

describe.skipIf(!process.env.WAYMARK_TEST_DATABASE_URL)('the PostgreSQL pool', () => {
  it('opens at most poolSize connections, however many queries wait', async () => {
    const ts = await createTestStore('postgres');
    try {
      const url = ts.env.WAYMARK_DATABASE_URL as string;
      const store = openStore({ databaseUrl: url, poolSize: 2 });
      try {
        const seen = await Promise.all(Array.from({ length: 6 }, () => sql<{ pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(0.05)`.execute(store.db)));
        expect(new Set(seen.map((r) => r.rows[0]?.pid)).size).toBeLessThanOrEqual(2);
      } finally {
        await store.close();
      }
    } finally {
      await ts.close();
    }
  });
});

describe('the embedded store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-tuning-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has planner statistics once opened again after rows were written', async () => {
    const first = openStore({ dataDir: dir });
    await first.migrate();
    await sql`INSERT INTO accounts (id, name, created_at) SELECT 'a' || value, 'n', '2026-01-01' FROM json_each(${JSON.stringify(Array.from({ length: 500 }, (_, i) => i))})`.execute(first.db);
    await first.close();
    const again = openStore({ dataDir: dir });
    try {
      const stats = await sql<{ tbl: string }>`SELECT tbl FROM sqlite_stat1`.execute(again.db);
      expect(stats.rows.map((r) => r.tbl)).toContain('accounts');
    } finally {
      await again.close();
    }
  });
});

describe.each(ENGINES)('trail_steps on %s', (engine) => {
  let ts: TestStore | undefined;
  afterAll(async () => ts?.close());

  it('keeps one index on (trail_id, seq): the unique constraint, not a copy of it', async () => {
    ts = await createTestStore(engine);
    const names =
      engine === 'sqlite'
        ? await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'trail_steps'`.execute(ts.store.db)
        : await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'trail_steps'`.execute(ts.store.db);
    const list = names.rows.map((r) => r.name);
    expect(list).not.toContain('trail_steps_trail');
    // SQLite names a constraint's index itself.
    expect(list.some((n) => n.includes('trail_steps_seq') || n.startsWith('sqlite_autoindex_trail_steps'))).toBe(true);
  });
});

describe.each(ENGINES)('migrating on %s', (engine) => {
  let ts: TestStore | undefined;
  afterAll(async () => ts?.close());

  it('leaves the planner statistics of the tables it changed', async () => {
    ts = await createTestStore(engine);
    if (engine === 'sqlite') {
      const stat = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(ts.store.db);
      expect(stat.rows).toHaveLength(1);
    } else {
      // A table never analyzed counts -1 tuples (PostgreSQL 14 and later); an analyzed empty one 0.
      const trails = await sql<{ reltuples: number }>`SELECT reltuples FROM pg_class WHERE relname = 'trails'`.execute(ts.store.db);
      expect(trails.rows.map((r) => Number(r.reltuples))).toEqual([0]);
    }
  });
});
