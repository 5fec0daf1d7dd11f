/**
 * Issue 24, the OAuth findings, attacked as a person's app and as an anonymous outsider would, against a real
 * `waymark serve` on each engine: consent bounded by the person (3), key management only from the person's
 * own web session (4), sign-out ending the provider's session (8). The flows go through the server's real
 * pages and cookies over HTTP (oauth-consent.ts).
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from '../engines.js';
import { authorizeUrl, connectApp, follow, pkce, registerClient, signedInJar } from '../oauth-consent.js';
import { startServe, type Served } from '../serve.js';

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

describe.each(ENGINES)('OAuth hardening (issue 24) on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let serve: Served;
  let origin: string;
  let ownerToken: string;
  let ownerId: string;
  let accountId: string;
  let viewerId: string;

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
    const first = await services.auth.init();
    ownerToken = first.token?.token ?? '';
    ownerId = first.token?.principalId ?? '';
    accountId = first.accountId;
    viewerId = (await services.auth.createToken({ accountId, permission: 'view', capabilities: ['waymark.read'], kind: 'person', name: 'Vera' })).principalId;
    serve = await startServe({ ...ts.env });
    origin = new URL(serve.url).origin;
  }, 60_000);

  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    if (serve) await once(serve.child, 'exit');
    await ts?.close();
  });

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

  it('registers a client (a sanity check of the helper)', async () => {
    expect(await registerClient(origin)).toMatch(/\S/);
  });
});
