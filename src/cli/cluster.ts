/**
 * `waymark serve --workers N`: N server processes behind one listening port (node:cluster), so a machine's
 * every core serves calls. The server is stateless over HTTP and both stores take writers from several
 * processes (SQLite in WAL with a busy timeout, PostgreSQL's pool per process), so the workers share nothing
 * but the store.
 *
 * The primary prepares the store (migrations, the first owner token) before any worker starts, prints the
 * one `listening on` line once every worker listens, restarts a worker that dies, and on SIGTERM/SIGINT asks
 * each worker to drain its calls and stop.
 */
import cluster, { type Worker } from 'node:cluster';

export const isClusterWorker = (): boolean => cluster.isWorker;

/** What a worker tells the primary once it listens. */
export interface ListeningMessage {
  waymark: 'listening';
  port: number;
}

export function reportListening(port: number): void {
  process.send?.({ waymark: 'listening', port } satisfies ListeningMessage);
}

const RESTART_DELAY_MS = 500;

/**
 * Runs in the primary: forks `count` workers running the same command, and resolves with the port once all
 * of them listen. `announce` prints the start line.
 */
export async function runPrimary(count: number, announce: (port: number) => void): Promise<void> {
  let stopping = false;
  const listening = new Set<number>();
  let announced = false;
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: Partial<ListeningMessage>) => {
      if (message?.waymark !== 'listening' || typeof message.port !== 'number') return;
      listening.add(worker.id);
      if (!announced && listening.size >= count) {
        announced = true;
        announce(message.port);
      }
    });
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`waymark: worker ${worker.process.pid} stopped (${signal ?? `exit ${code}`}); starting another\n`);
    setTimeout(fork, RESTART_DELAY_MS);
  });
  const stop = () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  for (let i = 0; i < count; i++) fork();
}
