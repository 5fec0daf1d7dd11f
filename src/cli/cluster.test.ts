/**
 * `waymark serve --workers 2`: two worker processes behind one port, on each engine. The first start's
 * token is printed once; calls from several clients are answered by both workers; a worker that dies is
 * replaced; SIGTERM stops the primary and its workers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, readdirSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

/** The pids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

async function until(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(ENGINES)('waymark serve --workers 2 on %s', (engine) => {
  let ts: TestStore;
  let child: ChildProcess;
  let out = '';
  let url: string;
  let token: string;

  beforeAll(async () => {
    ts = await createTestStore(engine, { migrate: false });
    child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--workers', '2'], { env: { ...process.env, ...ts.env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    await until(() => /^waymark_[A-Za-z0-9_-]{43}$/m.test(out), 60_000);
    url = /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1] ?? '';
    token = /^(waymark_[A-Za-z0-9_-]{43})$/m.exec(out)?.[1] ?? '';
  }, 90_000);
  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await ts.close();
  });

  it('announces once, with the worker count and one first-start token', () => {
    expect(out.match(/listening on/g)).toHaveLength(1);
    expect(out).toContain(', 2 workers');
    expect(out.match(/^waymark_[A-Za-z0-9_-]{43}$/gm)).toHaveLength(1);
    expect(childrenOf(child.pid as number)).toHaveLength(2);
  });

  it('serves tool calls from several clients at once', async () => {
    const clients = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = new Client({ name: 'cluster-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
        return client;
      }),
    );
    const results = await Promise.all(clients.flatMap((c) => [1, 2, 3].map(() => c.callTool({ name: 'describe_platform', arguments: {} }))));
    expect(results.every((r) => (r.structuredContent as { success: boolean }).success)).toBe(true);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('replaces a worker that dies, then stops on SIGTERM with its workers', async () => {
    const [first] = childrenOf(child.pid as number);
    process.kill(first as number, 'SIGKILL');
    await until(() => {
      const now = childrenOf(child.pid as number);
      return now.length === 2 && !now.includes(first as number);
    });
    const workers = childrenOf(child.pid as number);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    await until(() => workers.every((pid) => !readdirSync('/proc').includes(String(pid))));
  }, 60_000);
});
