/**
 * Signing in to the web app (issue 11, Proof: security) against the real HTTP app on each engine: a one-time
 * link opens a session cookie; replayed, expired and forged links get a page saying so; CSRF is required on
 * every state-changing request made with the cookie; revoked and signed-out sessions are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { Browser, signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import { hashToken } from '../../services/auth/auth.service.js';

describe.each(ENGINES)('web app sign-in and session on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let person: Principal;
  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    person = await h.principal({ kind: 'person', permission: 'edit', capabilities: ['run'] });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  const signinUrl = (token: string) => `${web.origin}/app/signin?token=${encodeURIComponent(token)}`;

  it('a link opens a session: HttpOnly, SameSite=Lax cookie, 303 to /app/; /me names the person; only hashes are stored', async () => {
    const link = await h.services.signin.createLink({ principalId: person.principalId });
    expect(link.token).toMatch(/^waymark_link_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const browser = new Browser(web.origin);
    const res = await browser.open(signinUrl(link.token));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('waymark_session='));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/);
    const session = browser.cookies.get('waymark_session')!;
    expect(session).toMatch(/^waymark_session_/);
    const me = await browser.me();
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ principal_id: person.principalId, kind: 'person', permission: 'edit', auth: 'session', capabilities: ['waymark.read', 'waymark.run'], account_id: h.accountId });
    expect(me.body.data?.csrf_token).toEqual(expect.any(String));
    const db = h.store.store.db;
    const links = await db.selectFrom('signin_links').selectAll().where('principal_id', '=', person.principalId).execute();
    expect(links.map((l) => l.token_hash)).toContain(hashToken(link.token));
    expect(JSON.stringify(links)).not.toContain(link.token);
    const sessions = await db.selectFrom('signin_sessions').selectAll().where('principal_id', '=', person.principalId).execute();
    expect(sessions.map((s) => s.token_hash)).toContain(hashToken(session));
    expect(JSON.stringify(sessions)).not.toContain(session);
  });

  it('a replayed link is refused with a page (410), and opens no session', async () => {
    const link = await h.services.signin.createLink({ principalId: person.principalId });
    // A link checker's HEAD does not use it up.
    expect((await fetch(signinUrl(link.token), { method: 'HEAD', redirect: 'manual' })).status).toBe(200);
    expect((await new Browser(web.origin).open(signinUrl(link.token))).status).toBe(303);
    const again = new Browser(web.origin);
    const res = await again.open(signinUrl(link.token));
    expect(res.status).toBe(410);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith('waymark_session='))).toEqual([]);
    const page = await res.text();
    expect(page).toContain('<h1>This sign-in link was already used</h1>');
    expect(page).not.toMatch(/<script|at .*\.ts:\d+/);
  });

  it('an expired link (410), a forged one and none at all (400) get their own page', async () => {
    const link = await h.services.signin.createLink({ principalId: person.principalId });
    await h.store.store.db.updateTable('signin_links').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', hashToken(link.token)).execute();
    const expired = await new Browser(web.origin).open(signinUrl(link.token));
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('<h1>This sign-in link has expired</h1>');
    for (const url of [signinUrl(`${link.token.slice(0, -2)}xx`), signinUrl('waymark_link_forged'), `${web.origin}/app/signin`]) {
      const res = await new Browser(web.origin).open(url);
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await res.text()).toContain('<h1>This sign-in link is not valid</h1>');
    }
  });

  it('refuses a state-changing request made with the cookie but without the CSRF token (403), and with a wrong one', async () => {
    const browser = await signedIn(h.services, web.origin, person.principalId);
    const token = browser.csrf;
    browser.csrf = null;
    const missing = await browser.post('/signout');
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatchObject({ code: 'FORBIDDEN', status: 403, details: { reason: 'csrf' } });
    browser.csrf = `${token}x`;
    expect((await browser.post('/signout')).status).toBe(403);
    // Another session's token does not fit this session.
    const other = await signedIn(h.services, web.origin, person.principalId);
    browser.csrf = other.csrf;
    expect((await browser.post('/signout')).status).toBe(403);
    // Still signed in: nothing was done.
    expect((await browser.get('/me')).status).toBe(200);
    browser.csrf = token;
    expect(await browser.ok(browser.post('/signout'))).toEqual({ signed_out: true });
  });

  it('signs out: the cookie is cleared and the old session is refused 401 even if replayed', async () => {
    const browser = await signedIn(h.services, web.origin, person.principalId);
    const session = browser.cookies.get('waymark_session')!;
    expect(await browser.ok(browser.post('/signout'))).toEqual({ signed_out: true });
    expect(browser.cookies.has('waymark_session')).toBe(false);
    const replay = new Browser(web.origin);
    replay.cookies.set('waymark_session', session);
    const res = await replay.get('/me');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('a revoked session answers 401; other principals\' sessions live on', async () => {
    const browser = await signedIn(h.services, web.origin, person.principalId);
    const otherPerson = await h.principal({ kind: 'person', capabilities: ['run'] });
    const other = await signedIn(h.services, web.origin, otherPerson.principalId);
    expect(await h.services.signin.revokeSessions(person.principalId)).toBeGreaterThanOrEqual(1);
    expect((await browser.get('/inbox')).status).toBe(401);
    expect((await other.get('/inbox')).status).toBe(200);
    expect(await h.services.signin.revokeSessions(person.principalId)).toBe(0);
  });

  it('sessions end when idle 12 hours or 7 days after sign-in', async () => {
    const db = h.store.store.db;
    const idle = await signedIn(h.services, web.origin, person.principalId);
    await db.updateTable('signin_sessions').set({ last_seen_at: new Date(Date.now() - 12 * 3_600_000 - 1000).toISOString() }).where('token_hash', '=', hashToken(idle.cookies.get('waymark_session')!)).execute();
    expect((await idle.get('/me')).status).toBe(401);
    const old = await signedIn(h.services, web.origin, person.principalId);
    await db.updateTable('signin_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('token_hash', '=', hashToken(old.cookies.get('waymark_session')!)).execute();
    expect((await old.get('/me')).status).toBe(401);
    const fresh = await signedIn(h.services, web.origin, person.principalId);
    expect((await fresh.get('/me')).status).toBe(200);
  });

  it('no session: /api/v1 answers 401 JSON; a Bearer token needs no CSRF token', async () => {
    const res = await fetch(`${web.origin}/api/v1/inbox`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:0\/\.well-known\/oauth-protected-resource\/mcp"/);
    expect(((await res.json()) as { success: boolean; error: { code: string } })).toMatchObject({ success: false, error: { code: 'UNAUTHENTICATED', status: 401 } });
    // A wrong token is still the bearer check's refusal.
    expect((await fetch(`${web.origin}/api/v1/inbox`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const bearer = await fetch(`${web.origin}/api/v1/signout`, { method: 'POST', headers: { authorization: `Bearer ${person.token}` } });
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toEqual({ success: true, data: { signed_out: false } });
    const me = (await (await fetch(`${web.origin}/api/v1/me`, { headers: { authorization: `Bearer ${person.token}` } })).json()) as { data: Record<string, unknown> };
    expect(me.data).toMatchObject({ auth: 'bearer', csrf_token: null, capabilities: ['waymark.run'] });
  });

  it('links are for people, with known capabilities and at most 7 days', async () => {
    await expect(h.services.signin.createLink({ principalId: h.owner.principalId })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(h.services.signin.createLink({ principalId: person.principalId, capabilities: ['waymark.nope'] })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(h.services.signin.createLink({ principalId: person.principalId, expiresInMs: 8 * 86_400_000 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(h.services.signin.createLink({ principalId: '00000000-0000-4000-8000-000000000000' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('behind https the session cookie is Secure and the CSRF cookie __Host- prefixed', async () => {
    const secure = await startWebServer(h.services, { publicUrl: 'https://waymark.example.com' });
    try {
      const link = await h.services.signin.createLink({ principalId: person.principalId });
      const browser = new Browser(secure.origin);
      const res = await browser.open(`${secure.origin}/app/signin?token=${link.token}`);
      expect(res.headers.getSetCookie().find((c) => c.startsWith('waymark_session='))).toMatch(/; Secure/);
      const me = await browser.fetch('/api/v1/me');
      expect(me.headers.getSetCookie().find((c) => c.startsWith('__Host-waymark_csrf='))).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });
});
