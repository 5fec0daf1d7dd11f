/**
 * OAuth 2.1 for remote MCP clients (issue 12), end to end against a real `waymark serve` on each engine:
 * the SDK client's OAuth provider registers (DCR), is sent to /authorize, a headless Chromium signs the
 * person in with a sign-in link and consents, the client exchanges the code and calls tools; then refresh,
 * revocation, a reduced grant, and the refusals of the protocol.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { catchRedirect, launchBrowser, MemoryOAuthProvider, REDIRECT_URI } from './oauth-flow.js';

const BIN = new URL('../bin/waymark.js', import.meta.url).pathname;
const ACCESS_TTL = 3;

async function startServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; out: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url, out: () => out };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

function structured(result: unknown): { success: boolean; data?: Record<string, unknown>; error?: { code: string } } {
  return (result as { structuredContent: { success: boolean; data?: Record<string, unknown>; error?: { code: string } } }).structuredContent;
}

describe.each(ENGINES)('OAuth for remote MCP clients on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let serve: Awaited<ReturnType<typeof startServe>>;
  let browser: Browser;
  let ownerToken: string;
  let ownerId: string;
  let otherPersonId: string;
  let ownerBitId: string;

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
    const first = await services.auth.init();
    ownerToken = first.token?.token ?? '';
    ownerId = first.token?.principalId ?? '';
    const otherAccount = await services.auth.createAccount('other');
    otherPersonId = (await services.auth.createToken({ accountId: otherAccount, permission: 'admin', capabilities: ['waymark.read'], kind: 'person', name: 'Olga' })).principalId;
    serve = await startServe({ ...ts.env, WAYMARK_OAUTH_ACCESS_TOKEN_TTL: String(ACCESS_TTL) });
    const owner = new Client({ name: 'setup', version: '1' });
    await owner.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${ownerToken}` } } }));
    const added = structured(await owner.callTool({ name: 'add_bit', arguments: { title: 'Owner bit', bit_body: 'Hello.' } }));
    ownerBitId = String(added.data?.bit_id);
    await owner.close();
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    serve?.child.kill('SIGTERM');
    if (serve) await once(serve.child, 'exit');
    await ts?.close();
  });

  /** A browser where `principalId` signed in with a sign-in link, as a person does. */
  async function signedInBrowser(principalId: string): Promise<BrowserContext> {
    const context = await browser.newContext();
    const link = await services.signin.createLink({ principalId });
    const page = await context.newPage();
    await page.goto(new URL(`/app/signin?token=${link.token}`, serve.url).href);
    await page.close();
    return context;
  }

  /** Opens the authorization URL, consents (leaving only `keep` ticked when given) and answers the code. */
  async function consent(context: BrowserContext, authorizationUrl: URL, keep?: string[]): Promise<URL> {
    const caught = await catchRedirect(context);
    const page: Page = await context.newPage();
    await page.goto(authorizationUrl.href);
    if (!caught()) {
      if (keep) {
        for (const box of await page.getByRole('checkbox').all()) {
          if (!keep.includes(String(await box.getAttribute('value')))) await box.uncheck();
        }
      }
      await page.getByRole('button', { name: 'Allow' }).click();
      for (let i = 0; i < 100 && !caught(); i++) await sleep(100);
      if (!caught()) throw new Error(`no redirect back: at ${page.url()}: ${serve.out()}`);
    }
    await page.close();
    const back = caught();
    if (!back) throw new Error('the browser never came back to the client');
    return back;
  }

  /** The SDK client through the whole flow: 401 → metadata → DCR → browser → code → tokens → connected. */
  async function connectThroughBrowser(name: string, context: BrowserContext, keep?: string[]): Promise<{ client: Client; provider: MemoryOAuthProvider }> {
    const provider = new MemoryOAuthProvider(name);
    const first = new StreamableHTTPClientTransport(new URL(serve.url), { authProvider: provider });
    await expect(new Client({ name, version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.pathname).toBe('/oauth/authorize');
    const back = await consent(context, provider.authorizationUrl as URL, keep);
    await first.finishAuth(back.searchParams);
    const client = new Client({ name, version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { authProvider: provider }));
    return { client, provider };
  }

  it('a person signs in and consents; the SDK client registers, exchanges the code and calls describe_platform as that person', async () => {
    const context = await signedInBrowser(ownerId);
    const { client, provider } = await connectThroughBrowser('Claude test', context);
    expect(provider.client?.client_id).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    const described = structured(await client.callTool({ name: 'describe_platform', arguments: {} }));
    expect(described.success).toBe(true);
    expect(JSON.stringify(described.data)).toContain(ownerId);
    const bit = structured(await client.callTool({ name: 'get_bit', arguments: { bit_id: ownerBitId } }));
    expect(bit.success).toBe(true);
    await client.close();
    await context.close();
  }, 60_000);
});
