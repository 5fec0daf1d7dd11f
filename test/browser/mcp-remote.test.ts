/**
 * Issue 12: mcp-remote, the stdio bridge desktop clients use for remote servers, connects to a real
 * `waymark serve` through the browser flow, on each engine. mcp-remote registers itself (DCR), prints the
 * authorization URL (it would open a browser; here a headless Chromium where the person signed in opens it),
 * the person consents, the browser comes back to mcp-remote's own callback server, and the SDK client on
 * mcp-remote's stdio calls tools as that person.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from '../engines.js';
import { launchBrowser } from '../oauth-flow.js';
import { startServe, type Served } from '../serve.js';

const PROXY = new URL('../../node_modules/mcp-remote/dist/proxy.js', import.meta.url).pathname;

function structured(result: unknown): { success: boolean; data?: Record<string, unknown>; error?: { code: string } } {
  return (result as { structuredContent: { success: boolean; data?: Record<string, unknown>; error?: { code: string } } }).structuredContent;
}

/** A port nothing listens on now, for mcp-remote's callback server. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe.each(ENGINES)('mcp-remote through the browser flow on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let serve: Served;
  let browser: Browser;
  let ownerId: string;
  let configDir: string;

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
    ownerId = (await services.auth.init()).token?.principalId ?? '';
    serve = await startServe(ts.env);
    browser = await launchBrowser();
    configDir = mkdtempSync(join(tmpdir(), 'waymark-mcp-remote-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    serve?.child.kill('SIGTERM');
    if (serve) await once(serve.child, 'exit');
    await ts?.close();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  });

  it('registers, sends the person to consent, and its stdio client calls tools as that person', async () => {
    const port = await freePort();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PROXY, serve.url, String(port), '--host', '127.0.0.1', '--transport', 'http-only'],
      // No desktop here: mcp-remote's attempt to open a browser fails, and it goes on waiting for the callback.
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: configDir, DISPLAY: '', BROWSER: 'true' },
      stderr: 'pipe',
    });
    let printed = '';
    const authorizationUrl = new Promise<string>((resolve, reject) => {
      transport.stderr?.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /Please authorize this client by visiting:\s+(\S+)/.exec(printed);
        if (match) resolve(match[1] as string);
      });
      setTimeout(() => reject(new Error(`mcp-remote printed no authorization URL:\n${printed}`)), 30_000).unref();
    });
    const client = new Client({ name: 'mcp-remote e2e', version: '1' });
    const connected = client.connect(transport);

    const url = new URL(await authorizationUrl);
    expect(url.origin).toBe(new URL(serve.url).origin);
    expect(url.pathname).toBe('/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/oauth/callback`);

    // The person signs in with a sign-in link, then opens the URL mcp-remote printed and allows it.
    const context = await browser.newContext();
    const page = await context.newPage();
    // A link carrying author: a grant never gives more than the sign-in it was given in (issue 24).
    const link = await services.signin.createLink({ principalId: ownerId, capabilities: ['waymark.read', 'waymark.author', 'waymark.run'] });
    await page.goto(new URL(`/app/signin?token=${link.token}`, serve.url).href);
    await page.goto(url.href);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Allow MCP CLI Proxy to use Waymark as you\?$/);
    expect(await page.getByText('127.0.0.1').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Allow' }).click();
    // Back at mcp-remote's callback server, which tells the person to go back to their client.
    await page.waitForURL(`http://127.0.0.1:${port}/oauth/callback**`);
    await context.close();

    await connected;
    const described = structured(await client.callTool({ name: 'describe_platform', arguments: {} }));
    expect(described.success).toBe(true);
    expect(JSON.stringify(described.data)).toContain(ownerId);
    const added = structured(await client.callTool({ name: 'add_bit', arguments: { bit_title: 'Through mcp-remote', bit_body: 'Hello.' } }));
    expect(added, JSON.stringify(added)).toMatchObject({ success: true });

    // The grant is the person's, listed where they can revoke it, with mcp-remote's name and callback host.
    const owner = await services.oauth.actorFor(ownerId, '');
    const grants = owner ? await services.oauth.listGrants(owner) : [];
    expect(grants).toHaveLength(1);
    expect(grants[0]?.redirect_hosts).toEqual([`127.0.0.1:${port}`]);
    expect(grants[0]?.client_name).toBe('MCP CLI Proxy');
    await client.close();
  }, 120_000);
});
