/**
 * People and access (issue 28) over REST with an Admin's session, on both engines: an invitation makes a person and a
 * one-time link (shown once without mail, queued as mail with it and never shown); the person's maximum bounds every
 * credential (link, session, token, the consent's offer, an app's token) and lowering it cuts the existing ones at
 * their next use; ending a person's access revokes their sessions, links, tokens and grants; the account's last Admin
 * cannot shut themself out; another account's person is PRINCIPAL_NOT_FOUND. Each accepted change writes its event.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { Browser, signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import { allCapabilityNames } from '../../config.js';
import { grantableCapabilities } from '../../services/auth/oauth.service.js';
import type { AccessEnded, Directory, Invitation, PersonView } from '../../services/auth/shapes.js';

const [AUTHOR, READ, RUN] = allCapabilityNames();

describe.each(ENGINES)('people and access on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let admin: Browser;
  let adminId: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    adminId = (await h.services.auth.createToken({ accountId: h.accountId, permission: 'admin', capabilities: [READ], kind: 'person', name: 'Ada Admin' })).principalId;
    admin = new Browser(web.origin);
    const link = await h.services.signin.createLink({ principalId: adminId, capabilities: allCapabilityNames() });
    expect((await admin.open(`${web.origin}/app/signin?token=${link.token}`)).status).toBe(303);
    await admin.me();
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });
  afterEach(() => {
    delete process.env.WAYMARK_SMTP_URL;
  });

  const eventsOf = (resourceId: string) => h.store.store.db.selectFrom('events').select(['operation', 'summary']).where('resource_id', '=', resourceId).execute();
  const invite = (body: Record<string, unknown>) => admin.ok(admin.post<Invitation>('/people', body));

  it('invites a person without mail: the link is answered once, signs them in with their maximum, and the change is recorded', async () => {
    const answer = await invite({ name: 'Rae Runner', email: 'Rae@Example.com', permission: 'view', max_capabilities: [RUN, READ] });
    expect(answer.mailed).toBe(false);
    expect(answer.signin_token).toMatch(/^waymark_link_/);
    expect(answer.person).toMatchObject({ name: 'Rae Runner', kind: 'person', email: 'rae@example.com', permission: 'view', scope_id: null, max_capabilities: [READ, RUN] });
    const person = new Browser(web.origin);
    expect((await person.open(`${web.origin}/app/signin?token=${answer.signin_token}`)).status).toBe(303);
    const me = await person.ok(person.get<{ capabilities: string[]; name: string }>('/me'));
    expect([me.name, [...me.capabilities].sort()]).toEqual(['Rae Runner', [READ, RUN]]);
    // Once: the same link opens nothing again.
    expect((await new Browser(web.origin).open(`${web.origin}/app/signin?token=${answer.signin_token}`)).status).not.toBe(303);
    const events = await eventsOf(answer.person.principal_id);
    expect(events.map((e) => e.operation)).toContain('invite_person');
    // No mail was queued: nothing holds the link.
    expect(await h.store.store.db.selectFrom('notifications').select('id').where('principal_id', '=', answer.person.principal_id).execute()).toEqual([]);
  });

  it('with SMTP configured the link goes on the mail queue in the same write and is not in the answer, nor in the person\'s notifications', async () => {
    process.env.WAYMARK_SMTP_URL = 'smtp://127.0.0.1:9';
    const answer = await invite({ name: 'Mo Mailed', email: 'mo@example.com', permission: 'edit', max_capabilities: [READ] });
    expect([answer.mailed, answer.signin_token]).toEqual([true, null]);
    const rows = await h.store.store.db.selectFrom('notifications').selectAll().where('principal_id', '=', answer.person.principal_id).execute();
    expect(rows.map((r) => [r.kind, r.email_state])).toEqual([['invited', 'pending']]);
    expect(JSON.parse(rows[0].summary)).toMatchObject({ signin_token: expect.stringMatching(/^waymark_link_/), invited_by: 'Ada Admin' });
    const link = await h.services.signin.redeem(JSON.parse(rows[0].summary).signin_token as string);
    expect(link.ok).toBe(true);
    const own = await h.services.auth.createToken({ accountId: h.accountId, principalId: answer.person.principal_id, permission: 'edit', capabilities: [READ] });
    const actor = await h.services.auth.authenticate(own.token);
    expect((await h.services.notifications.list(actor!, {})).notifications).toEqual([]);
  });

  it('refuses an invitation with an email the account has, an unknown capability, or no capability, and writes nothing', async () => {
    await invite({ name: 'First', email: 'same@example.com', permission: 'view', max_capabilities: [READ] });
    const before = await h.store.store.db.selectFrom('principals').select('id').execute();
    for (const body of [
      { name: 'Second', email: 'SAME@example.com', permission: 'view', max_capabilities: [READ] },
      { name: 'Third', email: 'third@example.com', permission: 'view', max_capabilities: [] },
      { name: 'Fourth', email: 'fourth@example.com', permission: 'view', max_capabilities: ['waymark.everything'] },
    ]) {
      const answer = await admin.post('/people', body);
      expect(answer.body.error?.code, JSON.stringify(body)).toBe('VALIDATION_ERROR');
    }
    expect((await h.store.store.db.selectFrom('principals').select('id').execute()).length).toBe(before.length);
  });

  it('bounds every credential by the maximum and cuts existing ones when it is lowered', async () => {
    const { person } = await invite({ name: 'Tia Token', email: 'tia@example.com', permission: 'edit', max_capabilities: [READ, RUN, AUTHOR] });
    const id = person.principal_id;
    const token = await h.services.auth.createToken({ accountId: h.accountId, principalId: id, permission: 'edit', capabilities: [READ, RUN, AUTHOR] });
    const session = await signedIn(h.services, web.origin, id);
    const lowered = await admin.ok(admin.post<PersonView>(`/people/${id}`, { max_capabilities: [RUN] }));
    expect(lowered.max_capabilities).toEqual([RUN]);
    // The token and the session still exist; what they may do is cut where their actor is built.
    expect((await h.services.auth.authenticate(token.token))?.capabilities).toEqual([RUN]);
    const me = await session.ok(session.get<{ capabilities: string[] }>('/me'));
    expect(me.capabilities).toEqual([RUN]);
    // The consent page offers only what the session may: no author, no read.
    const sessionActor = await h.services.auth.authenticate(token.token);
    expect(grantableCapabilities(sessionActor!)).toEqual([RUN]);
    // An app's access token acts within the maximum too.
    expect((await h.services.oauth.actorFor(id, `${READ} ${RUN} ${AUTHOR}`))?.capabilities).toEqual([RUN]);
    // New credentials beyond it are refused in words.
    await expect(h.services.auth.createToken({ accountId: h.accountId, principalId: id, permission: 'edit', capabilities: [AUTHOR] })).rejects.toThrow(/at most waymark\.run; waymark\.author is beyond the maximum/);
    await expect(h.services.signin.createLink({ principalId: id, capabilities: [READ] })).rejects.toThrow(/beyond the maximum/);
    // Without capabilities asked, a link carries the default cut to the maximum.
    const link = await h.services.signin.createLink({ principalId: id });
    const redeemed = await h.services.signin.redeem(link.token);
    expect(redeemed.ok && (await h.services.signin.actorOf(redeemed.session))?.capabilities).toEqual([RUN]);
    expect((await eventsOf(id)).some((e) => e.operation === 'update_person')).toBe(true);
  });

  it('changes permission and scope, and ends every session, link, token and grant of a person at once', async () => {
    const scopeId = await h.services.auth.createScope(h.accountId, 'Ops');
    const { person } = await invite({ name: 'Eli Ended', email: 'eli@example.com', permission: 'view', max_capabilities: [READ, RUN] });
    const id = person.principal_id;
    const changed = await admin.ok(admin.post<PersonView>(`/people/${id}`, { permission: 'edit', scope_id: scopeId }));
    expect([changed.permission, changed.scope_id]).toEqual(['edit', scopeId]);
    const token = await h.services.auth.createToken({ accountId: h.accountId, principalId: id, permission: 'edit', capabilities: [READ] });
    const session = await signedIn(h.services, web.origin, id);
    const pending = await h.services.signin.createLink({ principalId: id });
    const ended = await admin.ok(admin.post<AccessEnded>(`/people/${id}/end-access`, {}));
    // The invitation's own link is still unused: it is cancelled with the new one.
    expect(ended).toEqual({ principal_id: id, sessions_ended: 1, links_cancelled: 2, tokens_revoked: 1, grants_revoked: 0 });
    expect(await h.services.auth.authenticate(token.token)).toBeNull();
    expect((await session.get('/me')).status).toBe(401);
    expect((await h.services.signin.redeem(pending.token)).ok).toBe(false);
    expect((await eventsOf(id)).map((e) => e.operation)).toContain('end_person_access');
    // Nothing is left to end: nothing is recorded.
    const again = await admin.ok(admin.post<AccessEnded>(`/people/${id}/end-access`, {}));
    expect(again.sessions_ended + again.links_cancelled + again.tokens_revoked + again.grants_revoked).toBe(0);
    expect((await eventsOf(id)).filter((e) => e.operation === 'end_person_access')).toHaveLength(1);
  });

  it('keeps the account\'s last Admin: no demotion, no scope, no cut below author, no ending their access', async () => {
    const accountId = await h.services.auth.createAccount('Solo');
    const solo = await h.services.auth.createToken({ accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Solo Admin' });
    const link = await h.services.signin.createLink({ principalId: solo.principalId, capabilities: allCapabilityNames() });
    const browser = new Browser(web.origin);
    await browser.open(`${web.origin}/app/signin?token=${link.token}`);
    await browser.me();
    const scopeId = await h.services.auth.createScope(accountId, 'Team');
    for (const [path, body] of [
      [`/people/${solo.principalId}`, { permission: 'edit' }],
      [`/people/${solo.principalId}`, { scope_id: scopeId }],
      [`/people/${solo.principalId}`, { max_capabilities: [READ, RUN] }],
      [`/people/${solo.principalId}/end-access`, {}],
    ] as const) {
      const answer = await browser.post(path, body);
      expect(answer.body.error?.code, JSON.stringify(body)).toBe('VALIDATION_ERROR');
      expect(answer.body.error?.message).toContain('last Admin');
    }
    // With a second Admin, the first may step down.
    const invited = await browser.ok(browser.post<Invitation>('/people', { name: 'Second Admin', email: 'second@solo.example', permission: 'admin', max_capabilities: allCapabilityNames() }));
    expect(invited.person.permission).toBe('admin');
    expect((await browser.ok(browser.post<PersonView>(`/people/${solo.principalId}`, { permission: 'edit' }))).permission).toBe('edit');
  });

  it('answers another account\'s person as one that does not exist, and shows permission and maximum only to an Admin', async () => {
    const other = await h.services.auth.createAccount('Elsewhere');
    const stranger = await h.services.auth.createToken({ accountId: other, permission: 'view', capabilities: [READ], kind: 'person', name: 'Stranger' });
    for (const path of [`/people/${stranger.principalId}`, `/people/${stranger.principalId}/end-access`]) {
      const answer = await admin.post(path, path.endsWith('access') ? {} : { permission: 'admin' });
      expect(answer.body.error?.code).toBe('PRINCIPAL_NOT_FOUND');
    }
    const viewer = (await invite({ name: 'Vic Viewer', email: 'vic@example.com', permission: 'view', max_capabilities: [READ] })).person;
    const browser = await signedIn(h.services, web.origin, viewer.principal_id);
    const seen = await browser.ok(browser.get<Directory>('/people'));
    const ada = seen.people.find((p) => p.principal_id === adminId);
    expect([ada?.permission, ada?.max_capabilities]).toEqual([null, null]);
    expect(seen.people.find((p) => p.principal_id === viewer.principal_id)?.max_capabilities).toEqual([READ]);
    // A person who is not an Admin invites no one.
    expect((await browser.post('/people', { name: 'X', email: 'x@example.com', permission: 'view', max_capabilities: [READ] })).body.error?.code).toBe('FORBIDDEN');
  });
});
