/**
 * Issue 24, the OAuth findings, attacked as a person's app and as an anonymous outsider would, against a real
 * `waymark serve` on each engine: consent bounded by the person (3), key management only from the person's
 * own web session (4), metadata documents fetched only from public addresses (5), anonymous registration
 * rate-limited, bounded, capped and expiring (6), sign-out ending the
 * provider's session (8), plain-http redirect URIs only on this machine (10). The flows go through the server's real
 * pages and cookies over HTTP (oauth-consent.ts).
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from '../engines.js';
import { REDIRECT_URI } from '../oauth-flow.js';
import { authorizeUrl, connectApp, follow, pkce, registerClient, signedInJar } from '../oauth-consent.js';
import { startServe, startServedStore, type Served, type ServedStore } from '../serve.js';

const ALL = ['waymark.read', 'waymark.author', 'waymark.run'];

interface Envelope {
  success: boolean;
  data?: Record<string, unknown>;
  error?: { code: string; details?: Record<string, unknown> };
}

/** One tools/call over /mcp with a Bearer token: the envelope, or the HTTP status when no tool answered. */
async function callTool(mcpUrl: string, token: string, name: string, args: Record<string, unknown>): Promise<{ status: number; envelope?: Envelope }> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await response.text();
  const data = text.startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop();
  if (response.status !== 200 || !data) return { status: response.status };
  return { status: response.status, envelope: (JSON.parse(data) as { result?: { structuredContent?: Envelope } }).result?.structuredContent };
}

/** A TCP listener on this machine that counts who connected to it (it never answers). */
async function recordingListener(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let count = 0;
  const server = createServer((socket) => {
    count += 1;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, connections: () => count, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(ENGINES)('OAuth hardening (issue 24) on %s', (engine) => {
  let world: ServedStore;
  let services: Services;
  let serve: Served;
  let origin: string;
  let ownerToken: string;
  let ownerId: string;
  let accountId: string;
  let viewerId: string;

  beforeAll(async () => {
    world = await startServedStore(engine);
    ({ services, serve, origin } = world);
    ownerToken = world.first.token?.token ?? '';
    ownerId = world.first.token?.principalId ?? '';
    accountId = world.first.accountId;
    viewerId = (await services.auth.createToken({ accountId, permission: 'view', capabilities: ['waymark.read'], kind: 'person', name: 'Vera' })).principalId;
  }, 60_000);

  afterAll(async () => world?.close());

  describe('finding 3: a grant is bounded by the person and their sign-in', () => {
    it('a read,run sign-in is not offered author; a forged answer ticking it grants no author, and the app cannot write', async () => {
      const jar = await signedInJar(services, origin, ownerId, ['waymark.read', 'waymark.run']);
      // The app asks for everything; the forged form answer ticks everything too.
      const { tokens, consentHtml } = await connectApp(jar, serve.url, { tick: ALL });
      expect([...consentHtml.matchAll(/name="capability" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['waymark.read', 'waymark.run']);
      expect(consentHtml).toContain('Not available, so not granted');
      expect(consentHtml).toMatch(/<li>[^<]*\(<code>waymark\.author<\/code>\)<\/li>/);
      expect(tokens.scope?.split(' ').sort()).toEqual(['waymark.read', 'waymark.run']);
      const write = await callTool(serve.url, tokens.access_token, 'add_bit', { bit_title: 'Written by the app', bit_body: 'x' });
      expect(write.envelope?.error?.code).toBe('FORBIDDEN');
      expect((await callTool(serve.url, tokens.access_token, 'describe_platform', {})).envelope?.success).toBe(true);
      // The grant as the person sees it records no author either.
      const grants = await jar.get<{ grants: { client_id: string; capabilities: string[] }[] }>('/oauth/grants');
      expect(grants.body.data?.grants.map((g) => g.capabilities)).toContainEqual(['waymark.read', 'waymark.run']);
    });

    it('a View person is not offered author even with a sign-in link that carries it', async () => {
      const jar = await signedInJar(services, origin, viewerId, ALL);
      const { tokens, consentHtml } = await connectApp(jar, serve.url, { tick: ALL });
      expect([...consentHtml.matchAll(/name="capability" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['waymark.read', 'waymark.run']);
      expect(tokens.scope?.split(' ').sort()).toEqual(['waymark.read', 'waymark.run']);
    });

    it('a person whose admin allows them only run is offered only run (issue 28), and a lower maximum cuts the app at once', async () => {
      const runner = await services.auth.createToken({ accountId, permission: 'edit', capabilities: ['waymark.run'], kind: 'person', name: 'Rhea Runner' });
      const admin = await services.auth.authenticate(ownerToken);
      await services.people.update(admin!, { principal_id: runner.principalId, max_capabilities: ['waymark.run', 'waymark.read'] });
      const jar = await signedInJar(services, origin, runner.principalId, ['waymark.read', 'waymark.run']);
      await services.people.update(admin!, { principal_id: runner.principalId, max_capabilities: ['waymark.run'] });
      const { tokens, consentHtml } = await connectApp(jar, serve.url, { tick: ALL });
      expect([...consentHtml.matchAll(/name="capability" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['waymark.run']);
      expect(consentHtml).toMatch(/<li>[^<]*\(<code>waymark\.author<\/code>\)<\/li>/);
      expect(tokens.scope?.split(' ')).toEqual(['waymark.run']);
      expect((await callTool(serve.url, tokens.access_token, 'describe_platform', {})).envelope?.success).toBe(true);
      // The Admin takes run away too (read stays): the app's token can no longer run, without being reissued.
      await services.people.update(admin!, { principal_id: runner.principalId, max_capabilities: ['waymark.read'] });
      const started = await callTool(serve.url, tokens.access_token, 'start_trail', { flow_id: '00000000-0000-4000-8000-000000000000' });
      expect(started.envelope?.error?.code).toBe('FORBIDDEN');
    });

    it('an Edit person signed in with author is offered it, and the app writes as them', async () => {
      const jar = await signedInJar(services, origin, ownerId, ALL);
      const { tokens, consentHtml } = await connectApp(jar, serve.url);
      expect(consentHtml).not.toContain('Not available');
      expect(tokens.scope?.split(' ').sort()).toEqual(['waymark.author', 'waymark.read', 'waymark.run']);
      expect((await callTool(serve.url, tokens.access_token, 'add_bit', { bit_title: 'Written by the app', bit_body: 'x' })).envelope?.success).toBe(true);
    });
  });

  describe('finding 4: only the person\'s own web session manages their keys and grants', () => {
    it('an API key and an app token (even read only) get FORBIDDEN on every /api/v1/oauth route, and revoke nothing', async () => {
      const spare = await services.auth.createToken({ accountId, permission: 'admin', capabilities: ['waymark.read'], principalId: ownerId });
      const spareId = (await services.auth.listTokens(accountId, ownerId)).at(-1)?.id ?? '';
      const jar = await signedInJar(services, origin, ownerId, ALL);
      const victim = await connectApp(jar, serve.url, { tick: ['waymark.read'] });
      const app = await connectApp(jar, serve.url, { tick: ['waymark.read'] });
      const listed = await jar.get<{ grants: { grant_id: string; client_id: string }[] }>('/oauth/grants');
      const victimGrant = listed.body.data?.grants.find((g) => g.client_id === victim.clientId)?.grant_id ?? '';
      expect(victimGrant).not.toBe('');

      for (const bearer of [ownerToken, app.tokens.access_token]) {
        const auth = { authorization: `Bearer ${bearer}` };
        const calls: [string, string][] = [
          ['GET', '/api/v1/oauth/tokens'],
          ['GET', '/api/v1/oauth/grants'],
          ['DELETE', `/api/v1/oauth/tokens/${spareId}`],
          ['DELETE', `/api/v1/oauth/grants/${victimGrant}`],
        ];
        for (const [method, path] of calls) {
          const response = await fetch(new URL(path, origin), { method, headers: auth });
          expect(response.status, `${method} ${path}`).toBe(403);
          expect(await response.json()).toMatchObject({ success: false, error: { code: 'FORBIDDEN', status: 403, details: { required_credential: 'session' } } });
        }
      }
      // Nothing was revoked: the spare key and the other app still work.
      expect((await callTool(serve.url, spare.token, 'describe_platform', {})).envelope?.success).toBe(true);
      expect((await callTool(serve.url, victim.tokens.access_token, 'describe_platform', {})).envelope?.success).toBe(true);

      // The person's own session does it, with its CSRF token (and not without).
      const noCsrf = await jar.fetch(`/api/v1/oauth/grants/${victimGrant}`, { method: 'DELETE', csrf: false });
      expect(noCsrf.status).toBe(403);
      expect(await noCsrf.json()).toMatchObject({ error: { code: 'FORBIDDEN', details: { reason: 'csrf' } } });
      const revoked = await jar.fetch(`/api/v1/oauth/grants/${victimGrant}`, { method: 'DELETE' });
      expect(await revoked.json()).toMatchObject({ success: true, data: { grant_id: victimGrant, revoked: true } });
      const tokens = await jar.get<{ tokens: { token_id: string }[] }>('/oauth/tokens');
      expect(tokens.body.data?.tokens.map((t) => t.token_id)).toContain(spareId);
      expect((await jar.fetch(`/api/v1/oauth/tokens/${spareId}`, { method: 'DELETE' })).status).toBe(200);
      expect((await callTool(serve.url, spare.token, 'describe_platform', {})).status).toBe(401);
    });
  });

  describe('finding 8: sign-out and session revoke end the provider\'s session', () => {
    for (const ending of ['sign-out', 'waymark session revoke'] as const) {
      it(`after ${ending}, /oauth/authorize for an app approved earlier asks to sign in and issues no code`, async () => {
        const jar = await signedInJar(services, origin, ownerId, ALL);
        const { clientId } = await connectApp(jar, serve.url, { tick: ['waymark.read'] });
        // Approved: a second authorization in the same browser is answered at once, with a code.
        const again = await follow(jar, authorizeUrl(origin, serve.url, clientId, 'waymark.read', pkce().challenge));
        expect(again.kind === 'redirect' && again.url.searchParams.get('code')).toBeTruthy();

        if (ending === 'sign-out') expect((await jar.post('/signout')).status).toBe(200);
        else await services.signin.revokeSessions(ownerId);

        const after = await follow(jar, authorizeUrl(origin, serve.url, clientId, 'waymark.read', pkce().challenge));
        expect(after.kind).toBe('page');
        if (after.kind !== 'page') return;
        expect(after.html).toContain('Sign in to');
        expect(after.html).not.toContain('name="capability"');
      });
    }
  });

  describe('finding 5: Client ID Metadata Documents are fetched only from public addresses', () => {
    it('an anonymous authorize naming a document on this machine or a private or metadata address is refused, and nothing connects there', async () => {
      const listener = await recordingListener();
      try {
        const hosts = ['127.0.0.1', 'localhost', '127.0.0.2', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '10.0.0.1', '169.254.169.254', '100.64.0.1', '[fd00:ec2::254]', '[fe80::1]'];
        for (const host of hosts) {
          const started = Date.now();
          const response = await fetch(authorizeUrl(origin, serve.url, `https://${host}:${listener.port}/client.json`, 'waymark.read', pkce().challenge), { redirect: 'manual' });
          expect(response.status, host).toBe(400);
          expect(await response.text(), host).toContain('invalid_client');
          // Refused before any connection: no wait for an unreachable address's timeout.
          expect(Date.now() - started, host).toBeLessThan(2000);
          expect(listener.connections(), host).toBe(0);
        }
      } finally {
        await listener.close();
      }
    });
  });

  describe('finding 10: a redirect URI over plain http must be this machine', () => {
    it('refuses http on another host at registration; accepts https, loopback http and a native app\'s private-use scheme', async () => {
      for (const redirect of ['http://app.example.com/callback', 'http://192.168.1.10:8080/cb']) {
        const response = await fetch(new URL('/oauth/register', origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }) });
        expect(response.status, redirect).toBe(400);
        expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
      }
      expect(await registerClient(origin, { redirect_uris: ['https://app.example.com/callback', 'http://127.0.0.1:8976/callback', 'http://localhost:3000/cb'] })).toMatch(/\S/);
      expect(await registerClient(origin, { application_type: 'native', redirect_uris: ['com.example.app:/callback', 'http://[::1]:8976/callback'] })).toMatch(/\S/);
    });
  });
});

/** A registration POST sent from one of this machine's loopback addresses (each is a distinct caller to the limiter). */
function registerFrom(localAddress: string, origin: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | undefined; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL('/oauth/register', origin), { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], json: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} }));
    });
    req.on('error', reject);
    // A body without a length is sent chunked.
    if (headers['content-length'] === '') req.removeHeader('content-length');
    req.end(body);
  });
}

const METADATA = JSON.stringify({ client_name: 'Flood', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });

describe.each(ENGINES)('finding 6: anonymous registration is bounded, on %s', (engine) => {
  let world: ServedStore;
  let ts: TestStore;
  let services: Services;
  let serve: Served;
  let origin: string;
  let ownerId: string;

  beforeAll(async () => {
    world = await startServedStore(engine);
    ({ ts, services, serve, origin } = world);
    ownerId = world.first.token?.principalId ?? '';
  }, 60_000);

  afterAll(async () => world?.close());

  const clientRow = (id: string) => ts.store.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Client').where('id', '=', id).executeTakeFirstOrThrow();

  it('one address gets 20 registrations, then 429 with Retry-After; another address is still served', async () => {
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await registerFrom('127.0.0.3', origin, METADATA));
    expect(answers.slice(0, 20).map((a) => a.status)).toEqual(Array<number>(20).fill(201));
    for (const refused of answers.slice(20)) {
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      expect(refused.json).toMatchObject({ error: 'temporarily_unavailable' });
    }
    expect((await registerFrom('127.0.0.4', origin, METADATA)).status).toBe(201);
  });

  it('metadata over 5 KB is refused before it is read (413), a body of unknown length too (411); what is kept stays small', async () => {
    const big = JSON.stringify({ client_name: 'x'.repeat(50_000), redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    const refused = await registerFrom('127.0.0.5', origin, big);
    expect(refused.status).toBe(413);
    expect(refused.json).toMatchObject({ error: 'invalid_client_metadata' });
    expect((await registerFrom('127.0.0.5', origin, METADATA, { 'content-length': '' })).status).toBe(411);
    const nearLimit = JSON.stringify({ client_name: 'y'.repeat(4_800), redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    const kept = await registerFrom('127.0.0.5', origin, nearLimit);
    expect(kept.status).toBe(201);
    const { payload } = await clientRow(String(kept.json.client_id));
    expect((typeof payload === 'string' ? payload : JSON.stringify(payload)).length).toBeLessThan(6 * 1024);
  });

  it('an unused client expires after a day; a client used by a grant lives as long as the grant; an expired one is unknown', async () => {
    const unused = String((await registerFrom('127.0.0.6', origin, METADATA)).json.client_id);
    const expiresAt = Date.parse(String((await clientRow(unused)).expires_at));
    expect(Math.abs(expiresAt - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);

    const jar = await signedInJar(services, origin, ownerId, ALL);
    const used = await connectApp(jar, serve.url, { tick: ['waymark.read'] });
    const grant = await ts.store.db.selectFrom('oauth_records').selectAll().where('model', '=', 'Grant').where('principal_id', 'is not', null).orderBy('expires_at', 'desc').executeTakeFirstOrThrow();
    expect((await clientRow(used.clientId)).expires_at).toBe(grant.expires_at);
    expect(Date.parse(String(grant.expires_at))).toBeGreaterThan(Date.now() + 80 * 24 * 3600_000);

    // A day later (the store's clock moved back a day and a minute): the unused client is no longer known.
    await ts.store.db.updateTable('oauth_records').set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where('model', '=', 'Client').where('id', '=', unused).execute();
    const response = await fetch(authorizeUrl(origin, serve.url, unused, 'waymark.read', pkce().challenge), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('invalid_client');
  });

  it('at 1000 live unused clients, registration answers 503 with Retry-After until some expire or are used', async () => {
    const adapter = services.oauth.adapter('Client');
    const live = await services.oauth.unusedClientCount();
    for (let i = live; i < 1000; i++) await adapter.upsert(`filler-${i}`, { client_id: `filler-${i}`, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    const refused = await registerFrom('127.0.0.7', origin, METADATA);
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('3600');
    await ts.store.db.deleteFrom('oauth_records').where('model', '=', 'Client').where('id', 'like', 'filler-%').execute();
    expect((await registerFrom('127.0.0.7', origin, METADATA)).status).toBe(201);
  });
});

describe('Client ID Metadata Documents from this machine (WAYMARK_OAUTH_CIMD=loopback, for development and tests)', () => {
  it('fetches a document served over https on loopback and sends the person to consent; private addresses stay refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-cimd-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
    let fetched = 0;
    const documents = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      fetched += 1;
      const clientId = `https://localhost:${(documents.address() as AddressInfo).port}${req.url ?? ''}`;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ client_id: clientId, client_name: 'Document app', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }));
    });
    documents.listen(0, '127.0.0.1');
    await once(documents, 'listening');
    const ts = await createTestStore('sqlite');
    // The child trusts the test's certificate as Node.js trusts any extra CA.
    const serve = await startServe({ ...ts.env, WAYMARK_OAUTH_CIMD: 'loopback', NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    try {
      const origin = new URL(serve.url).origin;
      const port = (documents.address() as AddressInfo).port;
      const response = await fetch(authorizeUrl(origin, serve.url, `https://localhost:${port}/client.json`, 'waymark.read', pkce().challenge), { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(new URL(response.headers.get('location') ?? '', origin).pathname).toMatch(/^\/oauth\/interaction\//);
      expect(fetched).toBe(1);
      const refused = await fetch(authorizeUrl(origin, serve.url, `https://10.0.0.1:${port}/client.json`, 'waymark.read', pkce().challenge), { redirect: 'manual' });
      expect(refused.status).toBe(400);
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await ts.close();
      await new Promise((resolve) => documents.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Client ID Metadata Documents turned off (WAYMARK_OAUTH_CIMD=off)', () => {
  it('are neither advertised nor fetched', async () => {
    const ts = await createTestStore('sqlite');
    const serve = await startServe({ ...ts.env, WAYMARK_OAUTH_CIMD: 'off' });
    const listener = await recordingListener();
    try {
      const origin = new URL(serve.url).origin;
      const metadata = (await (await fetch(new URL('/.well-known/oauth-authorization-server', origin))).json()) as Record<string, unknown>;
      expect(metadata.client_id_metadata_document_supported).toBeUndefined();
      expect(metadata.registration_endpoint).toBe(`${origin}/oauth/register`);
      const response = await fetch(authorizeUrl(origin, serve.url, `https://127.0.0.1:${listener.port}/client.json`, 'waymark.read', pkce().challenge), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(listener.connections()).toBe(0);
    } finally {
      await listener.close();
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
      await ts.close();
    }
  });
});
