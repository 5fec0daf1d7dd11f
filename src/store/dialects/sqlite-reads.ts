/**
 * Where the embedded store runs its searches (issue 16): better-sqlite3 answers a statement synchronously, on
 * the thread that asked, so a search over a large library held the event loop every account shares (a common
 * word over 100k references: 345 ms). With off-thread reads (serve and stdio ask for them) a search runs on a
 * reader thread with a read-only connection of its own, which WAL lets read beside the writer, under the same
 * time limit as a PostgreSQL statement: past it the thread is stopped and the call answers QUERY_TIMEOUT.
 * Without them (services called directly, as most tests do; an in-memory store) the statement runs inline.
 */
import { availableParallelism } from 'node:os';
import type { Kysely, RawBuilder } from 'kysely';
import { Piscina } from 'piscina';
import type { DB } from '../schema.js';
import { queryTimeout } from './dialect.js';
import type { ReadTask } from './sqlite-read-task.js';

export interface SqliteReads {
  /** The rows of a read-only query. */
  all<R>(query: RawBuilder<R>, db: Kysely<DB>): Promise<R[]>;
  close(): Promise<void>;
}

export function inlineReads(): SqliteReads {
  return {
    all: async (query, db) => (await query.execute(db)).rows,
    close: async () => undefined,
  };
}

export function threadReads(file: string, timeoutMs: number): SqliteReads {
  let pool: Piscina<ReadTask, unknown[]> | null = null;
  const started = () => {
    // Started with the first search, not with the store: most processes (the CLI's commands, a stdio session
    // that never searches) would load a thread for nothing.
    pool ??= new Piscina<ReadTask, unknown[]>({
      filename: new URL(import.meta.url.endsWith('.ts') ? './sqlite-read-worker.mjs' : './sqlite-read-task.js', import.meta.url).href,
      name: 'runReadTask',
      minThreads: 0,
      maxThreads: Math.max(1, availableParallelism()),
      idleTimeout: 60_000,
    });
    return pool;
  };
  return {
    async all<R>(query: RawBuilder<R>, db: Kysely<DB>): Promise<R[]> {
      const compiled = query.compile(db);
      try {
        return (await started().run({ file, sql: compiled.sql, parameters: [...compiled.parameters] }, { signal: AbortSignal.timeout(timeoutMs) })) as R[];
      } catch (error) {
        if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) throw queryTimeout(timeoutMs);
        throw error;
      }
    },
    async close() {
      const current = pool;
      pool = null;
      await current?.destroy();
    },
  };
}
