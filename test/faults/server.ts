/**
 * `waymark serve` as a child process that the fault test starts on a store and kills with SIGKILL:
 * the process gets no chance to finish anything, exactly like a crash or an OOM kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export const SERVE_BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** The server's error log lines (pino level 50 and up): an INTERNAL_ERROR's cause. */
  errors: string[];
  /** The owner token that the first start of a store prints after its listening line, if it printed one. */
  ownerToken(): Promise<string | null>;
  /** Everything the process wrote to stderr, for a failure's message. */
  stderr(): string;
}

export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SERVE_BIN, 'serve', '--port', '0'], {
    env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'error' },
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
      if (out.length < 8000) out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) {
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
  });
  const errors: string[] = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (/"level":(5|6)\d/.test(line)) errors.push(line.slice(0, 2000));
  });
  const ownerToken = async () => {
    // The token line is written right after the listening line; it may come in the next chunk.
    for (let i = 0; i < 50 && !/First start:[^\n]*\n\S+\n/.test(out); i++) await new Promise((r) => setTimeout(r, 10));
    return /First start:[^\n]*\n(\S+)\n/.exec(out)?.[1] ?? null;
  };
  return { child, url, errors, ownerToken, stderr: () => err };
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

/** SIGTERM under load: the server must exit by itself within `withinMs`; if not, it is killed and false answered. */
export async function terminateServe(serve: ServeProcess, withinMs: number): Promise<boolean> {
  if (serve.child.exitCode !== null || serve.child.signalCode !== null) return true;
  const exited = once(serve.child, 'exit');
  serve.child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), withinMs))]);
  if (!inTime) await killServe(serve);
  return inTime;
}
