import { sql, type SqlBool } from 'kysely';
import type { Db } from '../store.js';

/** What an archiver may take: a finished trail not archived yet (the condition of the partial index trails_archivable, migration 018). */
const ARCHIVABLE = sql<SqlBool>`archived_at IS NULL AND status IN ('completed', 'cancelled')`;

/**
 * Archives up to `batch` finished trails whose last change is before `before`, oldest first, and answers how many it
 * archived. One statement, its own transaction, so a batch holds its rows' locks for that statement only. Several
 * processes may run it at once: each row is archived once, as the outer UPDATE states the condition again and both
 * engines test it on the row as it is when written (PostgreSQL re-reads a row another transaction updated meanwhile;
 * SQLite runs one writer at a time), so a second archiver skips what the first took.
 */
export async function archiveFinishedBefore(db: Db, before: string, at: string, batch: number): Promise<number> {
  const result = await sql`UPDATE trails SET archived_at = ${at}
    WHERE id IN (SELECT id FROM trails WHERE ${ARCHIVABLE} AND updated_at < ${before} ORDER BY updated_at, id LIMIT ${batch})
      AND ${ARCHIVABLE}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
