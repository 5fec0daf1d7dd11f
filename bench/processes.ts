/**
 * Server processes for the benches: a child started with node that prints `listening on <url>` (waymark serve,
 * the SDK's minimal server), and its stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Starts `node <args>` with `env` on top of this process's, and resolves with the URL it says it listens on. */
export async function startListening(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, WAYMARK_LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
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
