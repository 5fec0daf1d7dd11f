/**
 * Issue 24, finding 2: `serve` listened before its HTTP app was attached, and a request that arrived in that gap
 * was never answered (6 of ~500 on SQLite, 14 on PostgreSQL in the first half second; a readiness loop hung ten
 * minutes). Here requests are sent from the moment the process is spawned, as fast as the port accepts them:
 * every one that connects is answered, /healthz with `starting` (503) or `ok`, a tool call with its answer.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from '../engines.js';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

/** A port free a moment ago: the server must be asked for a known port, or the gap could not be reached. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

type Outcome = { kind: 'refused' } | { kind: 'answered'; status: number; body: string } | { kind: 'hung' };

/** One request; `refused` when nothing listens yet, `hung` when it connected and had no answer in `waitMs`. */
function send(port: number, path: string, options: { method: string; headers?: Record<string, string>; body?: string }, waitMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method, headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(waitMs, () => {
      req.destroy();
      resolve({ kind: 'hung' });
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'hung' }));
    req.end(options.body);
  });
}

describe.each(ENGINES)('the start window on %s', (engine) => {
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.close();
  });

  it('answers every request that connects from the first moment: /healthz says starting, then ok; tool calls wait for the app', async () => {
    const store = await createTestStore(engine);
    stores.push(store);
    const token = (await createServices(store.store).auth.init()).token?.token ?? '';
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { env: { ...process.env, ...store.env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let listening = false;
    child.stdout.on('data', (chunk: Buffer) => (listening ||= chunk.toString().includes('listening on')));
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'describe_platform', arguments: {} } });
    const mcp = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: call };
    const outcomes: Array<{ path: string; outcome: Outcome }> = [];
    try {
      // From spawn until a while after the start line: each round sends a probe and a tool call side by side.
      let roundsAfter = 0;
      const deadline = Date.now() + 30_000;
      while (roundsAfter < 20 && Date.now() < deadline) {
        const [health, tool] = await Promise.all([send(port, '/healthz', { method: 'GET' }, 10_000), send(port, '/mcp', mcp, 10_000)]);
        outcomes.push({ path: '/healthz', outcome: health }, { path: '/mcp', outcome: tool });
        if (listening) roundsAfter++;
        if (health.kind === 'refused') await new Promise((r) => setTimeout(r, 2));
      }
    } finally {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
    expect(listening).toBe(true);
    const connected = outcomes.filter((o) => o.outcome.kind !== 'refused');
    expect(connected.length).toBeGreaterThan(20);
    expect(connected.filter((o) => o.outcome.kind === 'hung')).toEqual([]);
    for (const { path, outcome } of connected) {
      if (outcome.kind !== 'answered') continue;
      if (path === '/healthz') {
        const body = JSON.parse(outcome.body) as { status: string };
        expect([outcome.status, body.status]).toSatisfy(([status, word]: [number, string]) => (status === 503 && word === 'starting') || (status === 200 && word === 'ok'));
      } else {
        expect(outcome.status).toBe(200);
        expect((JSON.parse(outcome.body) as { result: { structuredContent: { success: boolean } } }).result.structuredContent.success).toBe(true);
      }
    }
    // The last probes found it ready.
    const last = connected.filter((o) => o.path === '/healthz').at(-1)?.outcome;
    expect(last).toMatchObject({ kind: 'answered', status: 200 });
  }, 60_000);
});
