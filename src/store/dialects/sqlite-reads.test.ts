/**
 * The embedded store's reader threads (sqlite-reads.ts). Searches themselves go through them in every SQLite
 * test (test/engines.ts opens stores as `waymark serve` does); here, the time limit and the free event loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WaymarkError } from '../../errors.js';
import { openStore, type Store } from '../store.js';
import { threadReads } from './sqlite-reads.js';

/** Far more work than the limit for SQLite alone: a recursive count to a billion. */
const LONG_QUERY = sql<{ n: number }>`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) AS n FROM c`;
/** Long enough for a reader thread to start from the TypeScript sources on a busy machine. */
const LIMIT_MS = 3000;

describe('the embedded store reads on threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-reads-'));
  let store: Store;
  beforeAll(async () => {
    store = openStore({ dataDir: dir });
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a statement past the time limit is stopped with QUERY_TIMEOUT while the event loop stays free, and the next one runs', async () => {
    const reads = threadReads(join(dir, 'waymark.db'), LIMIT_MS);
    try {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const error = await reads.all(LONG_QUERY, store.db).catch((e: unknown) => e);
      clearInterval(timer);
      expect(error).toBeInstanceOf(WaymarkError);
      expect((error as WaymarkError).code).toBe('QUERY_TIMEOUT');
      expect((error as WaymarkError).details).toEqual({ timeout_ms: LIMIT_MS });
      // The timer kept firing while SQLite counted (about 300 times in 3 s); inline, it would have waited for
      // the whole count and fired at most once.
      expect(ticks).toBeGreaterThan(20);
      const [row] = await reads.all(sql<{ n: number }>`SELECT count(*) AS n FROM accounts`, store.db);
      expect(row?.n).toBe(0);
    } finally {
      await reads.close();
    }
  }, 60_000);
});
