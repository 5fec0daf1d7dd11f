/**
 * One WAL checkpoint as the checkpoint thread runs it (sqlite-checkpoints.ts): on a read-write connection of
 * its own to the store's file (a read-only one cannot write the pages back), opened at the first task and kept.
 */
import Database from 'better-sqlite3';

export interface CheckpointTask {
  file: string;
}

const connections = new Map<string, Database.Database>();

/** Copies what the WAL holds back into the database file, waiting on no one (PASSIVE); answers the frames left. */
export function runCheckpointTask(task: CheckpointTask): number {
  let database = connections.get(task.file);
  if (!database) {
    database = new Database(task.file, { fileMustExist: true });
    // A checkpoint syncs the WAL before and the database file after, as the writer's connection would (sqlite.ts).
    database.pragma('synchronous = FULL');
    database.pragma('busy_timeout = 10000');
    connections.set(task.file, database);
  }
  const [result] = database.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  return result ? result.log - result.checkpointed : 0;
}
