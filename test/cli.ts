/**
 * The waymark command as scripts run it: its exit code, stdout and stderr. `waymark` calls the CLI's `main` in
 * this process, with the environment given over the process's own (as a child would inherit it), which is
 * what nearly every CLI test needs; starting node and tsx per command made the CLI tests about half of
 * `npm test`. `spawnWaymark` runs `bin/waymark.js` in a child process, for the tests of what only a process
 * shows (the launcher, exit codes as the shell sees them).
 */
import { spawn } from 'node:child_process';
import { main } from '../src/cli/main.js';

const BIN = new URL('../bin/waymark.js', import.meta.url).pathname;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function waymark(env: Record<string, string>, ...args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' },
  });
  return { code, stdout, stderr };
}

/**
 * Several commands, one after another, as a script runs them. Not at once: in one process, two commands
 * opening the embedded store wait on each other's lock with better-sqlite3's busy wait, which blocks the very
 * event loop the other needs to finish (4 at once took 30 s instead of 0.1 s).
 */
export async function waymarkEach(env: Record<string, string>, commands: string[][]): Promise<Run[]> {
  const runs: Run[] = [];
  for (const args of commands) runs.push(await waymark(env, ...args));
  return runs;
}

export function spawnWaymark(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
