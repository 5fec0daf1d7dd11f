/**
 * `waymark stdio` loads what it serves (issue 25): a whole session (initialize, tools/list, a tool call) run as
 * a desktop client runs it, in a child process whose every module load is written down by a loader hook, loads
 * the store and the MCP server but none of what only `serve` needs: neither Express nor OAuth (oidc-provider)
 * nor the HTTP app. What it costs in time is bench/start.ts's to say, not a test's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { createServices } from '../services/index.js';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

/** What only `serve` loads: its packages, and Waymark's own HTTP modules (from the sources, or their bundle entries). */
const SERVE_ONLY = /\/node_modules\/(express|oidc-provider|cookie-parser|csrf-csrf|@modelcontextprotocol\/express)\/|\/src\/http\/|\/dist\/bundle\/(app|serve)-/;

describe.each(ENGINES)('waymark stdio on %s', (engine) => {
  let ts: TestStore;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'waymark-loads-'));
  beforeAll(async () => {
    ts = await createTestStore(engine);
    token = (await createServices(ts.store).auth.init()).token?.token ?? '';
    // Registered with --import before the launcher runs: it sees every module the main thread loads, whichever
    // way bin/waymark.js runs the server (its bundle, or the sources through tsx).
    writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(process.env.WAYMARK_TEST_LOADED, url + '\\n');\n  return next(url, context);\n}\n`);
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url));\n`);
  });
  afterAll(async () => {
    await ts.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a whole session loads neither Express, OAuth nor the HTTP app', async () => {
    const loaded = join(dir, `loaded-${engine}.txt`);
    writeFileSync(loaded, '');
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...ts.env, WAYMARK_LOG_LEVEL: 'silent', WAYMARK_TOKEN: token, WAYMARK_TEST_LOADED: loaded };
    const client = new Client({ name: 'loads-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', join(dir, 'register.mjs'), BIN, 'stdio'], env, stderr: 'ignore' }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_platform');
    const result = await client.callTool({ name: 'describe_platform', arguments: {} });
    expect((result.structuredContent as { success: boolean }).success).toBe(true);
    await client.close();

    const urls = readFileSync(loaded, 'utf8').split('\n').filter(Boolean);
    // The hook saw the whole session: the launcher, the door (the MCP SDK), and what loads after the handshake
    // (piscina, which the services' worker pools import; pg comes through require, which the hook does not see).
    expect(urls.some((url) => url.endsWith('/bin/waymark.js'))).toBe(true);
    expect(urls.some((url) => url.includes('/node_modules/@modelcontextprotocol/server/') || /\/dist\/bundle\/stdio-door-/.test(url))).toBe(true);
    expect(urls.some((url) => url.includes('/node_modules/piscina/'))).toBe(true);
    expect(urls.filter((url) => SERVE_ONLY.test(url))).toEqual([]);
  });
});
