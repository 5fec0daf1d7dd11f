/** `waymark serve --port 0` in a child process, as a user starts it: its URL once it listens, and all it printed. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServices, type Services } from '../src/services/index.js';
import { createTestStore, type Engine, type TestStore } from './engines.js';

const BIN = new URL('../bin/waymark.js', import.meta.url).pathname;

export interface Served {
  child: ChildProcess;
  /** The /mcp URL from its start line. */
  url: string;
  /** stdout and stderr so far. */
  out(): string;
}

/** `env` goes on top of this process's; logs are silent unless `env` sets WAYMARK_LOG_LEVEL. */
export async function startServe(env: Record<string, string>, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { env: { ...process.env, WAYMARK_LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url, out: () => out };
}

/** Stops a `serve` started by startServe and waits for it to exit. */
export async function stopServe(served: Served | undefined): Promise<void> {
  if (!served) return;
  served.child.kill('SIGTERM');
  if (served.child.exitCode === null && served.child.signalCode === null) await once(served.child, 'exit');
}

/** A fresh store of `engine` with its owner made (`waymark init`), served by `waymark serve`. */
export interface ServedStore {
  ts: TestStore;
  services: Services;
  first: Awaited<ReturnType<Services['auth']['init']>>;
  serve: Served;
  /** The server's origin, e.g. http://127.0.0.1:PORT. */
  origin: string;
  close(): Promise<void>;
}

export async function startServedStore(engine: Engine, env: Record<string, string> = {}): Promise<ServedStore> {
  const ts = await createTestStore(engine);
  const services = createServices(ts.store);
  const first = await services.auth.init();
  const serve = await startServe({ ...ts.env, ...env });
  return {
    ts,
    services,
    first,
    serve,
    origin: new URL(serve.url).origin,
    async close() {
      await stopServe(serve);
      await ts.close();
    },
  };
}
