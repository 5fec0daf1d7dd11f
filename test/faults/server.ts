/**
 * `waymark serve` as a child process that the fault test starts on a store and kills with SIGKILL:
 * the process gets no chance to finish anything, exactly like a crash or an OOM kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr, for a failure's message. */
  stderr(): string;
}

export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString()).slice(-8000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`waymark serve exited (${code ?? signal}) before listening: ${out}\n${err}`));
    child.once('exit', onExit);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) {
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
  });
  // Keep draining stdout so that the child never blocks on a full pipe.
  child.stdout?.resume();
  return { child, url, stderr: () => err };
}

/** SIGKILL, and wait until the process is gone (its sockets closed, its transactions aborted). */
export async function killServe(serve: ServeProcess): Promise<void> {
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) return;
  const exited = once(serve.child, 'exit');
  serve.child.kill('SIGKILL');
  await exited;
}

/** A clean stop (SIGTERM), for the end of a run. */
export async function stopServe(serve: ServeProcess): Promise<void> {
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) return;
  const exited = once(serve.child, 'exit');
  serve.child.kill('SIGTERM');
  await exited;
}
