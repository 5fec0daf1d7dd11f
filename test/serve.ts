/** `waymark serve --port 0` in a child process, as a user starts it: its URL once it listens, and all it printed. */
import { spawn, type ChildProcess } from 'node:child_process';

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
