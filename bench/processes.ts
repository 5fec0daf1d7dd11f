/**
 * Server processes for the benches: a child started with node that prints `listening on <url>` (waymark serve,
 * the SDK's minimal server), and its stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

/** Starts `node <args>` with `env` on top of this process's, and resolves with the URL it says it listens on. */
const NO_REQUEST_QUOTAS = { WAYMARK_QUOTA_REQUESTS_PER_TOKEN: '0', WAYMARK_QUOTA_REQUESTS_PER_ACCOUNT: '0' };

export async function startListening(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  // A bench measures what a call costs, back to back from one token: the per-token and per-account request quotas
  // (README, "Fair share") would refuse it after 1,200 calls a minute, so a bench's server runs without them.
  const child = spawn(process.execPath, args, { env: { ...process.env, WAYMARK_LOG_LEVEL: 'silent', ...NO_REQUEST_QUOTAS, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
  return { child, url };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** CPU time (ms, every thread) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of stat(5), are the 12th and 13th after the command's closing paren.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}
const CLOCK_TICKS = 100;
