/**
 * The embedded store's WAL is checkpointed on a thread of its own (sqlite-checkpoints.ts): the commit of a large
 * write leaves the copy back into the database file to that thread, which then makes it (issue 24, finding 10).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from '../../../test/engines.js';

/** The WAL's last committed frame and the frames copied back so far, from the wal-index (SQLite's file format, "WAL-index format"). */
function walIndex(dir: string): { mxFrame: number; nBackfill: number } {
  const shm = readFileSync(join(dir, 'waymark.db-shm'));
  return { mxFrame: shm.readUInt32LE(16), nBackfill: shm.readUInt32LE(96) };
}

describe('WAL checkpoints of the embedded store', () => {
  let t: TestStore;
  let dir: string;
  beforeAll(async () => {
    t = await createTestStore('sqlite');
    dir = t.env.WAYMARK_DATA_DIR as string;
    await sql`CREATE TABLE scratch (body TEXT NOT NULL)`.execute(t.store.db);
  });
  afterAll(() => t.close());

  it('a commit of 8 MB leaves the checkpoint to the thread, which makes it', async () => {
    await t.store.transaction((tx) => sql`INSERT INTO scratch (body) VALUES (${'x'.repeat(8 * 1024 * 1024)})`.execute(tx));
    // Read at once after the commit: SQLite's own checkpoint (past 1000 pages) would have run inside it.
    const after = walIndex(dir);
    expect(after.mxFrame).toBeGreaterThan(2000);
    expect(after.nBackfill).toBeLessThan(after.mxFrame);
    const deadline = Date.now() + 10_000;
    while (walIndex(dir).nBackfill < after.mxFrame && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(walIndex(dir).nBackfill).toBeGreaterThanOrEqual(after.mxFrame);
  });
});
