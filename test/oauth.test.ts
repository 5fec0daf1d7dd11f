/**
 * OAuth 2.1 for remote MCP clients (issue 12), end to end against a real `waymark serve` on each engine:
 * the SDK client's OAuth provider registers (DCR), is sent to /authorize, a headless Chromium signs the
 * person in with a sign-in link and consents, the client exchanges the code and calls tools; then refresh,
 * revocation, a reduced grant, and the refusals of the protocol.
 */
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { startServe } from './serve.js';
import { catchRedirect, launchBrowser, MemoryOAuthProvider, REDIRECT_URI } from './oauth-flow.js';
import { signedInJar } from './oauth-consent.js';

const ACCESS_TTL = 3;

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
    const added = structured(await owner.callTool({ name: 'add_bit', arguments: { bit_title: 'Owner bit', bit_body: 'Hello.' } }));
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

  /** A browser where `principalId` signed in with a sign-in link carrying every capability, as a person does. */
  async function signedInBrowser(principalId: string): Promise<BrowserContext> {
    const context = await browser.newContext();
    const link = await services.signin.createLink({ principalId, capabilities: ['waymark.read', 'waymark.author', 'waymark.run'] });
    const page = await context.newPage();
    await page.goto(new URL(`/app/signin?token=${link.token}`, serve.url).href);
    await page.close();
    return context;
  }

  /** Opens the authorization URL, consents (leaving only `keep` ticked when given) and answers the code. */
  async function consent(context: BrowserContext, authorizationUrl: URL, keep?: string[]): Promise<URL> {
    const caught = await catchRedirect(context);
    const page: Page = await context.newPage();
    await page.goto(authorizationUrl.href).catch((error: unknown) => {
      if (!caught()) throw error;
    });
    if (!caught()) {
      if (keep) {
        for (const box of await page.getByRole('checkbox').all()) {
          if (!keep.includes(String(await box.getAttribute('value')))) await box.uncheck();
        }
      }
      await page.getByRole('button', { name: 'Allow' }).click();
      for (let i = 0; i < 100 && !caught(); i++) await sleep(100);
      if (!caught()) throw new Error(`no redirect back: at ${page.url()}`);
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
    expect(bit, JSON.stringify(bit)).toMatchObject({ success: true });
    // Signing in, consenting and a write through the grant are each one event of the person's (issue 26); the
    // write names the app it came through.
    const added = structured(await client.callTool({ name: 'add_bit', arguments: { bit_title: 'Through an app', bit_body: 'x' } }));
    const events = await ts.store.db.selectFrom('events').select(['operation', 'resource_type', 'resource_id', 'principal_id', 'principal_kind', 'client_name', 'token_id']).where('principal_id', '=', ownerId).orderBy('seq').execute();
    expect(events.filter((e) => e.operation !== 'add_bit' || e.resource_id === added.data?.bit_id).slice(-3)).toEqual([
      { operation: 'sign_in', resource_type: 'session', resource_id: expect.any(String), principal_id: ownerId, principal_kind: 'person', client_name: null, token_id: null },
      { operation: 'grant_access', resource_type: 'grant', resource_id: expect.any(String), principal_id: ownerId, principal_kind: 'person', client_name: 'Claude test', token_id: null },
      { operation: 'add_bit', resource_type: 'bit', resource_id: added.data?.bit_id, principal_id: ownerId, principal_kind: 'person', client_name: 'Claude test', token_id: null },
    ]);
    await client.close();
    await context.close();
  }, 60_000);

  it('a person not signed in is asked to sign in, and comes back to the consent page; the page has no axe violations', async () => {
    const provider = new MemoryOAuthProvider('VS Code test');
    await expect(new Client({ name: 'v', version: '1' }).connect(new StreamableHTTPClientTransport(new URL(serve.url), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    // bypassCSP lets the test inject axe-core; the pages themselves run no script.
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    await page.goto((provider.authorizationUrl as URL).href);
    const interaction = page.url();
    expect(new URL(interaction).pathname).toMatch(/^\/oauth\/interaction\//);
    expect(await page.locator('h1').textContent()).toBe('Sign in to Waymark first');
    const link = await services.signin.createLink({ principalId: ownerId });
    await page.goto(new URL(`/app/signin?token=${link.token}`, serve.url).href);
    await page.goto(interaction);
    expect(await page.locator('h1').textContent()).toBe('Allow VS Code test to use Waymark as you?');
    expect(await page.getByText('127.0.0.1:8976').count()).toBe(1);
    // The link's default session carries read and run: author is shown as not available, not offered (issue 24).
    expect(await page.getByRole('checkbox').count()).toBe(2);
    expect(await page.getByText('Not available, so not granted', { exact: false }).count()).toBe(1);
    // axe-core is injected through the test browser (the page's CSP allows no script of its own).
    await page.addScriptTag({ path: new URL('../node_modules/axe-core/axe.min.js', import.meta.url).pathname });
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
      return (await axe.run()).violations.map((v) => `${v.impact}: ${v.id}`);
    });
    expect(violations.filter((v) => v.startsWith('serious') || v.startsWith('critical'))).toEqual([]);
    await context.close();
  }, 60_000);

  it('refreshes after the access token expires (the old token is refused as expired), and rotates the refresh token', async () => {
    const context = await signedInBrowser(ownerId);
    const { client, provider } = await connectThroughBrowser('Refresh test', context);
    const firstAccess = provider.saved?.access_token as string;
    const firstRefresh = provider.saved?.refresh_token as string;
    await sleep((ACCESS_TTL + 1) * 1000);
    const expired = await fetch(serve.url, { method: 'POST', headers: { authorization: `Bearer ${firstAccess}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error_description="The access token has expired');
    expect(structured(await client.callTool({ name: 'describe_platform', arguments: {} })).success).toBe(true);
    expect(provider.saved?.access_token).not.toBe(firstAccess);
    expect(provider.saved?.refresh_token).not.toBe(firstRefresh);
    const reuse = await fetch(new URL('/oauth/token', serve.url), { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: firstRefresh, client_id: String(provider.client?.client_id) }) });
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
    await client.close();
    await context.close();
  }, 90_000);

  it('a revoked grant answers 401; the grants list shows it before and not after', async () => {
    const context = await signedInBrowser(ownerId);
    const { client, provider } = await connectThroughBrowser('Revoke test', context);
    // Grants are managed from the person's own web session (issue 24), here another sign-in of the same person.
    const jar = await signedInJar(services, new URL(serve.url).origin, ownerId);
    const listed = (await jar.get<{ grants: { grant_id: string; client_name: string; capabilities: string[] }[] }>('/oauth/grants')).body;
    const grant = listed.data?.grants.find((g) => g.client_name === 'Revoke test');
    expect(grant?.capabilities).toEqual(['waymark.author', 'waymark.read', 'waymark.run']);
    const revoked = await jar.fetch(`/api/v1/oauth/grants/${grant?.grant_id}`, { method: 'DELETE' });
    expect(await revoked.json()).toMatchObject({ success: true, data: { revoked: true } });
    const after = await fetch(serve.url, { method: 'POST', headers: { authorization: `Bearer ${provider.saved?.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(after.status).toBe(401);
    const again = await jar.fetch(`/api/v1/oauth/grants/${grant?.grant_id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    await client.close().catch(() => undefined);
    await context.close();
  }, 60_000);

  it('a grant of fewer capabilities: reads work, writes are FORBIDDEN; revoked on the connected-apps page', async () => {
    const context = await signedInBrowser(ownerId);
    const { client, provider } = await connectThroughBrowser('Reader test', context, ['waymark.read']);
    expect(provider.saved?.scope?.split(' ')).toEqual(['waymark.read']);
    expect(structured(await client.callTool({ name: 'get_bit', arguments: { bit_id: ownerBitId } })).success).toBe(true);
    const write = structured(await client.callTool({ name: 'add_bit', arguments: { bit_title: 'Not allowed', bit_body: 'x' } }));
    expect(write.error?.code).toBe('FORBIDDEN');
    // The person revokes it on the connected-apps page.
    const page = await context.newPage();
    await page.goto(new URL('/oauth/grants', serve.url).href);
    // One row for the app, with its client id, when connected and last used, and the way back to the app.
    const row = page.getByRole('row', { name: /Reader test/ });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(`client ${String(provider.client?.client_id)}`);
    expect(await row.locator('time').count()).toBe(2);
    expect(await page.getByRole('link', { name: /Back to/ }).getAttribute('href')).toBe('/app/');
    // Asked once more on a page of its own; Keep it changes nothing.
    await page.getByRole('link', { name: 'Disconnect Reader test' }).click();
    await page.getByRole('heading', { name: 'Disconnect Reader test?' }).waitFor();
    await page.getByRole('link', { name: 'Keep it' }).click();
    await page.waitForURL(new URL('/oauth/grants', serve.url).href);
    await page.getByRole('link', { name: 'Disconnect Reader test' }).click();
    await page.getByRole('button', { name: 'Disconnect Reader test' }).click();
    await page.waitForURL(new URL('/oauth/grants', serve.url).href);
    expect(await page.getByRole('link', { name: 'Disconnect Reader test' }).count()).toBe(0);
    const after = await fetch(serve.url, { method: 'POST', headers: { authorization: `Bearer ${provider.saved?.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(after.status).toBe(401);
    await client.close().catch(() => undefined);
    await context.close();
  }, 60_000);

  it('a person lists and revokes their own API tokens on the connected-apps page and over REST; another person\'s token is not theirs', async () => {
    const accountId = (await services.auth.authenticate(ownerToken))?.accountId ?? '';
    const spare = await services.auth.createToken({ accountId, permission: 'admin', capabilities: ['waymark.read'], principalId: ownerId });
    const spareId = (await services.auth.listTokens(accountId, ownerId)).at(-1)?.id ?? '';
    const mcpWith = (token: string) => fetch(serve.url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect((await mcpWith(spare.token)).status).not.toBe(401);

    const jar = await signedInJar(services, new URL(serve.url).origin, ownerId);
    const listed = (await jar.get<{ tokens: { token_id: string; capabilities: string[] }[] }>('/oauth/tokens')).body;
    expect(listed.data?.tokens.find((t) => t.token_id === spareId)?.capabilities).toEqual(['waymark.read']);
    expect(JSON.stringify(listed)).not.toContain(spare.token);

    const context = await signedInBrowser(ownerId);
    const page = await context.newPage();
    await page.goto(new URL('/oauth/grants', serve.url).href);
    expect(await page.getByRole('table', { name: 'API tokens of owner' }).count()).toBe(1);
    await page.getByRole('link', { name: `Revoke token ${spareId.slice(0, 8)}` }).click();
    await page.getByRole('button', { name: 'Revoke the token' }).click();
    await page.waitForURL(new URL('/oauth/grants', serve.url).href);
    expect(await page.getByRole('link', { name: `Revoke token ${spareId.slice(0, 8)}` }).count()).toBe(0);
    expect((await mcpWith(spare.token)).status).toBe(401);
    // The owner's own token still works, and the other account's person cannot revoke it.
    expect((await mcpWith(ownerToken)).status).not.toBe(401);
    const otherJar = await signedInJar(services, new URL(serve.url).origin, otherPersonId);
    const ownerTokenId = (await services.auth.listTokens(accountId, ownerId))[0]?.id ?? '';
    const refused = await otherJar.fetch(`/api/v1/oauth/tokens/${ownerTokenId}`, { method: 'DELETE' });
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    expect((await mcpWith(ownerToken)).status).not.toBe(401);
    await context.close();
  }, 60_000);

  it("another account's person, through the same flow, does not find the owner's bit", async () => {
    const context = await signedInBrowser(otherPersonId);
    const { client } = await connectThroughBrowser('Other account test', context);
    expect(structured(await client.callTool({ name: 'get_bit', arguments: { bit_id: ownerBitId } })).error?.code).toBe('BIT_NOT_FOUND');
    await client.close();
    await context.close();
  }, 60_000);

  describe('refusals of the protocol', () => {
    let clientId: string;
    let context: BrowserContext;
    const register = async () => {
      const response = await fetch(new URL('/oauth/register', serve.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Raw client', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }) });
      expect(response.status).toBe(201);
      return ((await response.json()) as { client_id: string }).client_id;
    };
    const authorizeUrl = (params: Record<string, string>) => {
      const url = new URL('/oauth/authorize', serve.url);
      const resource = serve.url;
      url.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT_URI, scope: 'waymark.read', state: 's', resource, ...params }).toString();
      return url;
    };
    const exchange = (code: string, verifier: string, extra: Record<string, string> = {}) =>
      fetch(new URL('/oauth/token', serve.url), { method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT_URI, resource: serve.url, ...extra }) });
    const codeFor = async (verifier: string) => String((await consent(context, authorizeUrl({ code_challenge: s256(verifier), code_challenge_method: 'S256' }))).searchParams.get('code'));

    beforeAll(async () => {
      clientId = await register();
      context = await signedInBrowser(ownerId);
    });
    afterAll(async () => context.close());

    it('refuses an authorization request without PKCE, or with the plain method', async () => {
      const cases: Record<string, string>[] = [{}, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }];
      for (const params of cases) {
        const back = await consent(context, authorizeUrl(params));
        expect(back.searchParams.get('error')).toBe('invalid_request');
        expect(back.searchParams.get('code')).toBeNull();
      }
    }, 60_000);

    it('refuses a code exchanged with the wrong verifier', async () => {
      const verifier = randomBytes(32).toString('base64url');
      const response = await exchange(await codeFor(verifier), randomBytes(32).toString('base64url'));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    }, 60_000);

    it('never redirects to a redirect URI the client did not register', async () => {
      const response = await fetch(authorizeUrl({ redirect_uri: 'http://127.0.0.1:9/elsewhere', code_challenge: s256('x'.repeat(43)), code_challenge_method: 'S256' }), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('redirect_uri did not match any of the client');
    });

    it('refuses a replayed code and revokes what the first exchange issued', async () => {
      const verifier = randomBytes(32).toString('base64url');
      const code = await codeFor(verifier);
      const first = await exchange(code, verifier);
      expect(first.status).toBe(200);
      const { access_token } = (await first.json()) as { access_token: string };
      const replay = await exchange(code, verifier);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
      const call = await fetch(serve.url, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(call.status).toBe(401);
    }, 60_000);

    it('refuses a resource other than /mcp, at /authorize and at /token', async () => {
      const other = new URL('/other', serve.url).href;
      const back = await consent(context, authorizeUrl({ resource: other, code_challenge: s256('y'.repeat(43)), code_challenge_method: 'S256' }));
      expect(back.searchParams.get('error')).toBe('invalid_target');
      const verifier = randomBytes(32).toString('base64url');
      const response = await exchange(await codeFor(verifier), verifier, { resource: other });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_target' });
    }, 60_000);
  });
});

describe('OAuth where tokens would travel in clear text', () => {
  it('a plain-http public URL that is not this machine: one line at start, no authorization server advertised or served, no warning text', async () => {
    const ts = await createTestStore('sqlite');
    const serve = await startServe({ ...ts.env, WAYMARK_PUBLIC_URL: 'http://waymark.example.test:8080' });
    try {
      const base = new URL(serve.url);
      const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', base))).json()) as Record<string, unknown>;
      expect(prm).toEqual({ resource: 'http://waymark.example.test:8080/mcp', scopes_supported: ['waymark.author', 'waymark.read', 'waymark.run'], bearer_methods_supported: ['header'], resource_name: 'waymark' });
      const registration = await fetch(new URL('/oauth/register', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI] }) });
      expect(registration.status).toBe(404);
      expect(serve.out().split('\n').filter((line) => line.startsWith('OAuth sign-in'))).toEqual([
        'OAuth sign-in for remote MCP clients is off: http://waymark.example.test:8080 is plain http and not this machine; set WAYMARK_PUBLIC_URL to the https address in front of this server to turn it on (waymark tokens work either way).',
      ]);
      expect(serve.out()).not.toMatch(/WARNING|dangerously/i);
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await ts.close();
    }
  }, 60_000);

  it('a default start (loopback) prints no warning text and advertises the authorization server', async () => {
    const ts = await createTestStore('sqlite');
    const serve = await startServe(ts.env);
    try {
      expect(serve.out()).not.toMatch(/WARNING|dangerously|OAuth sign-in/i);
      const base = new URL(serve.url);
      const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', base))).json()) as Record<string, unknown>;
      expect(prm.authorization_servers).toEqual([base.origin]);
      const metadata = (await (await fetch(new URL('/.well-known/oauth-authorization-server', base))).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ issuer: base.origin, code_challenge_methods_supported: ['S256'], registration_endpoint: `${base.origin}/oauth/register`, client_id_metadata_document_supported: true });
      expect(metadata).not.toHaveProperty('pushed_authorization_request_endpoint');
      expect(metadata).not.toHaveProperty('userinfo_endpoint');
      // oidc-provider, loaded by the first OAuth request, warns on Node.js before 22 (its supported runtimes).
      if (Number(process.versions.node.split('.')[0]) >= 22) expect(serve.out()).not.toMatch(/WARNING/);
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await ts.close();
    }
  }, 60_000);
});
