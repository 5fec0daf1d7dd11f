/**
 * Where the embedded store's WAL is checkpointed (issue 24, finding 10). SQLite checkpoints on the committing
 * connection once the WAL passes wal_autocheckpoint pages (1000, 4 MB): a commit of a near-limit body (8 MB)
 * always passes it, so that commit also copied the body into the database file and synced it, all inside
 * better-sqlite3's synchronous call on the event loop: 200–730 ms per commit with eight such writes at once
 * (the commit alone, without the checkpoint: 85–125 ms). With a checkpoint thread, the writer's own
 * checkpoint is only a backstop (WRITER_CHECKPOINT_PAGES), and after each commit the thread copies the WAL
 * back on a connection of its own; WAL lets it run beside the writer and the readers, and it waits on none
 * (PASSIVE). Without a thread (services called directly, an in-memory store) SQLite's default stays.
 */
import { Piscina } from 'piscina';
import type { CheckpointTask } from './sqlite-checkpoint-task.js';

/**
 * The writer's own checkpoint threshold beside a checkpoint thread (pages of 4 KB: 64 MB): reached only when
 * the thread falls behind (a reader holding an old snapshot, a stalled disk), so the WAL never grows unbounded.
 */
export const WRITER_CHECKPOINT_PAGES = 16_384;

export interface SqliteCheckpoints {
  /** The writer's connection committed: the WAL may hold pages to copy back. */
  committed(): void;
  close(): Promise<void>;
}

export function threadCheckpoints(file: string): SqliteCheckpoints {
  let pool: Piscina<CheckpointTask, number> | null = null;
  let running: Promise<void> | null = null;
  let pending = false;
  const started = () => {
    // Started with the first commit, not with the store, as the reader threads are (sqlite-reads.ts).
    pool ??= new Piscina<CheckpointTask, number>({
      filename: new URL(import.meta.url.endsWith('.ts') ? './sqlite-checkpoint-worker.mjs' : './sqlite-checkpoint-task.js', import.meta.url).href,
      name: 'runCheckpointTask',
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: 60_000,
    });
    return pool;
  };
  // One checkpoint at a time, and at most one more after it for the commits made meanwhile: a burst of
  // commits costs two checkpoints, not one each.
  const run = async () => {
    do {
      pending = false;
      await started().run({ file });
    } while (pending && pool);
  };
  return {
    committed() {
      if (running) {
        pending = true;
        return;
      }
      running = run()
        // A failed checkpoint loses nothing (the WAL keeps the pages; the writer's backstop copies them): said, not thrown.
        .catch((error: unknown) => process.emitWarning(error instanceof Error ? error : String(error), 'WaymarkCheckpoint'))
        .finally(() => {
          running = null;
        });
    },
    async close() {
      const current = pool;
      pool = null;
      await running;
      await current?.destroy();
    },
  };
}

/** No thread: SQLite checkpoints on the writer's connection, by its default threshold. */
export function inlineCheckpoints(): SqliteCheckpoints {
  return { committed: () => undefined, close: async () => undefined };
}
