/**
 * A person's notifications through the real server (issue 27): the REST operations with a person's session (as the
 * app calls them), and the live-update stream over real HTTP, on both engines. Notifications are recorded as a
 * causing write records them: notify() in a transaction of the store the server serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { openLive } from '../../../test/live-client.js';
import { signedIn, startWebServer, type Browser, type WebServer } from '../../../test/web-client.js';
import { LIMITS } from '../../limits/index.js';
import { notify, type Notice } from '../../services/notifications/record.js';
import type { NotificationPage, NotificationSettings } from '../../services/notifications/shapes.js';

describe.each(ENGINES)('notifications for people, on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let ann: Principal;
  let bob: Principal;
  let annApp: Browser;
  let bobApp: Browser;
  let trailId: string;
  let stepId: string;

  const tell = (to: Principal, notice: Partial<Notice> = {}) =>
    h.store.store.transaction((tx) =>
      notify(tx, h.accountId, { principalIds: [to.principalId] }, { kind: 'assigned', trailId, stepId, actorId: bob.principalId, summary: { step_title: 'Sign the contract', trail_title: 'Onboarding Ann' }, ...notice }),
    );
  const events = async () => (await h.store.store.db.selectFrom('events').select(['operation', 'resource_type', 'resource_id', 'principal_id']).where('account_id', '=', h.accountId).orderBy('seq').execute());

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services, { live: { pollMs: 100, heartbeatMs: 200 } });
    ann = await h.principal({ kind: 'person', permission: 'edit' });
    bob = await h.principal({ kind: 'person', permission: 'edit' });
    await h.store.store.db.updateTable('principals').set({ name: 'Ann Lee' }).where('id', '=', ann.principalId).execute();
    await h.store.store.db.updateTable('principals').set({ name: 'Bob Roy' }).where('id', '=', bob.principalId).execute();
    annApp = await signedIn(h.services, web.origin, ann.principalId);
    bobApp = await signedIn(h.services, web.origin, bob.principalId);
    const start = await addTestBit(h, { title: 'Sign the contract' });
    const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: start.bit_id });
    const trail = await h.owner.client.ok<{ trail_id: string; current_step: { step_id: string } }>('start_trail', { flow_id: flow.flow_id, trail_title: 'Onboarding Ann' });
    trailId = trail.trail_id;
    stepId = trail.current_step.step_id;
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('lists a person\'s notifications newest first, in words, a page at a time, with the unread count', async () => {
    expect(await annApp.ok(annApp.get('/notifications'))).toEqual({ notifications: [], unread_count: 0, next_cursor: null });
    await tell(ann);
    await tell(ann, { kind: 'mentioned', summary: { step_title: 'Sign the contract', trail_title: 'Onboarding Ann', excerpt: '@Ann Lee can you check clause 4?' } });
    await tell(ann, { kind: 'step_overdue', actorId: null, summary: { step_title: 'Sign the contract', trail_title: 'Onboarding Ann', due: '2026-01-05T09:00:00.000Z' } });
    const first = await annApp.ok<NotificationPage>(annApp.get('/notifications?limit=2'));
    expect(first.unread_count).toBe(3);
    expect(first.notifications.map((n) => [n.kind, n.summary, n.actor_name, n.due_date_time_utc, n.read])).toEqual([
      ['step_overdue', 'Overdue: Sign the contract in Onboarding Ann.', null, '2026-01-05T09:00:00.000Z', false],
      ['mentioned', 'Bob Roy mentioned you on Sign the contract in Onboarding Ann: “@Ann Lee can you check clause 4?”', 'Bob Roy', null, false],
    ]);
    expect(first.notifications[1]).toMatchObject({ trail_id: trailId, step_id: stepId, actor_id: bob.principalId, read_date_time_utc: null });
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await annApp.ok<NotificationPage>(annApp.get(`/notifications?limit=2&cursor=${first.next_cursor}`));
    expect(second.notifications.map((n) => n.summary)).toEqual(['You have a step to do: Sign the contract in Onboarding Ann (from Bob Roy).']);
    expect(second.next_cursor).toBeNull();
    expect(Number(second.notifications[0].notification_id)).toBeLessThan(Number(first.notifications[1].notification_id));
    // Bob was told nothing; he never sees Ann's.
    expect(await bobApp.ok(bobApp.get('/notifications'))).toEqual({ notifications: [], unread_count: 0, next_cursor: null });
  });

  it('marks named notifications read, or all; another person\'s is NOTIFICATION_NOT_FOUND and nothing is marked', async () => {
    const page = await annApp.ok<NotificationPage>(annApp.get('/notifications'));
    const [newest, middle] = page.notifications.map((n) => n.notification_id);
    expect(await annApp.ok(annApp.post('/notifications/read', { notification_ids: [newest] }))).toEqual({ marked: 1, unread_count: 2 });
    // Again: nothing more to mark.
    expect(await annApp.ok(annApp.post('/notifications/read', { notification_ids: [newest] }))).toEqual({ marked: 0, unread_count: 2 });
    const unread = await annApp.ok<NotificationPage>(annApp.get('/notifications?unread=true'));
    expect(unread.notifications.map((n) => n.notification_id)).toEqual(page.notifications.slice(1).map((n) => n.notification_id));
    expect((await annApp.ok<NotificationPage>(annApp.get('/notifications'))).notifications[0]).toMatchObject({ read: true, read_date_time_utc: expect.any(String) });

    // Bob names Ann's notification (beside nothing of his own): the same answer as a number that does not exist.
    const foreign = await bobApp.post('/notifications/read', { notification_ids: [middle] });
    const missing = await bobApp.post('/notifications/read', { notification_ids: ['999999999'] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'NOTIFICATION_NOT_FOUND', message: `You have no notification ${middle}: list_notifications lists yours.` });
    expect(missing.body.error?.code).toBe('NOTIFICATION_NOT_FOUND');
    // One of Ann's own beside one that is not hers: refused whole.
    expect((await annApp.post('/notifications/read', { notification_ids: [middle, 'not-a-number'] })).body.error?.code).toBe('NOTIFICATION_NOT_FOUND');
    expect((await annApp.ok<NotificationPage>(annApp.get('/notifications'))).unread_count).toBe(2);

    expect((await annApp.post('/notifications/read', {})).body.error?.code).toBe('VALIDATION_ERROR');
    expect((await annApp.post('/notifications/read', { notification_ids: [middle], all: true })).body.error?.code).toBe('VALIDATION_ERROR');
    expect((await annApp.get('/notifications?cursor=bm90LWEtY3Vyc29y')).body.error?.code).toBe('VALIDATION_ERROR');

    const before = await events();
    expect(await annApp.ok(annApp.post('/notifications/read', { all: true }))).toEqual({ marked: 2, unread_count: 0 });
    // Reading is the person's own state: no event (notifications.service.ts markRead says why).
    expect(await events()).toEqual(before);
  });

  it('shows and sets which kinds come by mail, with the person\'s address or none; a change records one event', async () => {
    const initial = await annApp.ok<NotificationSettings>(annApp.get('/notifications/settings'));
    expect(initial).toEqual({
      email: null,
      email_kinds: ['assigned', 'mentioned', 'step_overdue', 'trail_overdue'],
      kinds: [
        { kind: 'assigned', label: 'A step is assigned or handed to me or to a group I am in' },
        { kind: 'mentioned', label: 'Someone mentions me in a comment' },
        { kind: 'step_overdue', label: 'A step of mine is overdue' },
        { kind: 'trail_overdue', label: 'A trail of mine is overdue' },
      ],
    });
    const before = (await events()).length;
    const set = await annApp.ok<NotificationSettings>(annApp.post('/notifications/settings', { email_kinds: ['trail_overdue', 'mentioned'] }));
    expect(set.email_kinds).toEqual(['mentioned', 'trail_overdue']);
    expect((await events()).slice(before)).toEqual([{ operation: 'set_notification_settings', resource_type: 'principal', resource_id: ann.principalId, principal_id: ann.principalId }]);
    // The same choice again changes nothing and records nothing.
    await annApp.ok(annApp.post('/notifications/settings', { email_kinds: ['mentioned', 'trail_overdue'] }));
    expect((await events()).length).toBe(before + 1);
    expect((await annApp.post('/notifications/settings', { email_kinds: ['sms'] })).body.error?.code).toBe('VALIDATION_ERROR');

    // An Admin set her address: it shows, and what notify() records for mail follows her choice.
    await h.store.store.db.updateTable('principals').set({ email: 'ann@example.com' }).where('id', '=', ann.principalId).execute();
    expect((await annApp.ok<NotificationSettings>(annApp.get('/notifications/settings'))).email).toBe('ann@example.com');
    await tell(ann, { kind: 'assigned' });
    await tell(ann, { kind: 'mentioned' });
    const mail = await h.store.store.db.selectFrom('notifications').select(['kind', 'email_state']).where('principal_id', '=', ann.principalId).orderBy('id', 'desc').limit(2).execute();
    expect(mail).toEqual([
      { kind: 'mentioned', email_state: 'pending' },
      { kind: 'assigned', email_state: 'none' },
    ]);
    // Bob's settings are his own.
    expect((await bobApp.ok<NotificationSettings>(bobApp.get('/notifications/settings'))).email_kinds).toEqual(initial.email_kinds);
  });

  it('streams the unread count and inbox changes live, to the person concerned only', async () => {
    await annApp.ok(annApp.post('/notifications/read', { all: true }));
    const cookie = (b: Browser) => ({ cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
    const annLive = await openLive(`${web.origin}/api/v1/live`, cookie(annApp));
    const bobLive = await openLive(`${web.origin}/api/v1/live`, cookie(bobApp));
    try {
      expect(annLive.status).toBe(200);
      // On connecting: where the count stands.
      expect((await annLive.next('notifications')).data).toMatchObject({ unread_count: 0 });
      expect((await bobLive.next('notifications')).data).toEqual({ unread_count: 0, latest_id: null });
      await tell(ann);
      const told = await annLive.next('notifications');
      expect(told.data).toMatchObject({ unread_count: 1, latest_id: expect.any(String) });
      // Read in another tab: the count follows.
      await annApp.ok(annApp.post('/notifications/read', { notification_ids: [told.data.latest_id] }));
      expect((await annLive.next('notifications')).data).toMatchObject({ unread_count: 0 });
      expect(await bobLive.arrives('notifications', 500)).toBe(false);
      // A change to a trail both can see: an inbox update for each.
      await h.owner.client.ok('transfer_step', { trail_id: trailId, reason: 'A person signs' });
      expect((await annLive.next('inbox')).data).toEqual({ seq: expect.any(Number) });
      await bobLive.next('inbox');
    } finally {
      annLive.close();
      bobLive.close();
    }
  });

  it('tells a person limited to a scope of changes to the trails they can see only', async () => {
    const own = await h.services.auth.createScope(h.accountId, 'own');
    const hidden = await h.services.auth.createScope(h.accountId, 'hidden');
    const scoped = await h.principal({ kind: 'person', permission: 'edit', scopeId: own });
    const live = await openLive(`${web.origin}/api/v1/live`, { authorization: `Bearer ${scoped.token}` });
    try {
      await live.next('notifications');
      const hiddenBit = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Hidden', bit_body: 'x', scope_id: hidden });
      const hiddenFlow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Hidden', start_bit_id: hiddenBit.bit_id, scope_id: hidden });
      await h.owner.client.ok('start_trail', { flow_id: hiddenFlow.flow_id });
      expect(await live.arrives('inbox', 800)).toBe(false);
      const ownBit = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Own', bit_body: 'x', scope_id: own });
      const ownFlow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Own', start_bit_id: ownBit.bit_id, scope_id: own });
      await h.owner.client.ok('start_trail', { flow_id: ownFlow.flow_id });
      await live.next('inbox');
    } finally {
      live.close();
    }
  });

  it('refuses a stream without credentials or the run capability, and past the per-person bound', async () => {
    const anonymous = await fetch(`${web.origin}/api/v1/live`);
    expect(anonymous.status).toBe(401);
    const reader = await h.principal({ kind: 'person', capabilities: ['read'] });
    const forbidden = await fetch(`${web.origin}/api/v1/live`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(forbidden.status).toBe(403);
    expect(((await forbidden.json()) as { error: { details: unknown } }).error.details).toEqual({ required_capability: 'waymark.run' });

    const carol = await h.principal({ kind: 'person' });
    const streams = await Promise.all(Array.from({ length: LIMITS.liveStreamsPerPerson }, () => openLive(`${web.origin}/api/v1/live`, { authorization: `Bearer ${carol.token}` })));
    try {
      expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
      const over = await fetch(`${web.origin}/api/v1/live`, { headers: { authorization: `Bearer ${carol.token}` } });
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('60');
      const body = (await over.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('TOO_MANY_REQUESTS');
      expect(body.error.message).toMatch(/close one of them/);
    } finally {
      for (const s of streams) s.close();
    }
    // A closed stream frees its place.
    await expect.poll(async () => (await openLive(`${web.origin}/api/v1/live`, { authorization: `Bearer ${carol.token}` }).then((s) => (s.close(), s.status))), { timeout: 5000 }).toBe(200);
    expect((await fetch(`${web.origin}/api/v1/live`, { method: 'POST', headers: { authorization: `Bearer ${carol.token}` } })).status).toBe(405);
  });

  it('sends a heartbeat, and a server closing with streams open ends them instead of waiting', async () => {
    const own = await startWebServer(h.services, { live: { pollMs: 100, heartbeatMs: 100 } });
    const res = await fetch(`${own.origin}/api/v1/live`, { headers: { authorization: `Bearer ${ann.token}` } });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes(': keep-alive')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(/^retry: 3000\n\n/);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(2000);
    // The stream ended with the server.
    for (;;) if ((await reader.read()).done) break;
  });
});
