/**
 * Who does a step and by when (issue 27), through the real doors on each engine: agents over MCP, people in the
 * app over REST with their session. A bit names who does its step (set on the bit's row here, as the groups
 * engineer's add_bit will: setup, not a mock); the trail resolves it on entry, get_trail says who it waits for, only
 * they act on it (STEP_ASSIGNED for everyone else, agents included), a group's member claims and releases it, an
 * Admin reassigns it, transfer_step hands it to a person or group, each new assignee is told (notifications rows),
 * due times follow, and the inbox's views and counts show it all.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { textArea } from '../../../test/trail-fixtures.js';
import { Browser, signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import type { Inbox } from '../../services/trails/inbox.service.js';
import type { StepPayload } from '../../services/trails/step-form.service.js';
import type { TrailView } from '../../services/trails/shapes.js';

describe.each(ENGINES)('who does a step and by when, on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  const people: Record<'ann' | 'bo' | 'cy', Principal> = {} as never;
  const browsers: Record<'ann' | 'bo' | 'cy', Browser> = {} as never;
  let finance: string;
  let stranger: Principal;
  const flows: Record<string, string> = {};
  /** The notes element of each flow's first step. */
  const notes: Record<string, string> = {};
  const db = () => h.store.store.db;

  /** A one-step flow whose bit names `assignee` (and an expected duration), then a second step nobody is named for. */
  const flowFor = async (name: string, assignee: string | null, duration: string | null = null) => {
    const bit = await addTestBit(h, { title: `${name} step`, blocks: [textArea('notes')] });
    notes[name] = bit.ids.notes;
    await db().updateTable('bits').set({ assignee, expected_duration: duration }).where('id', '=', bit.bit_id).execute();
    const next = await addTestBit(h, { title: `${name} done` });
    await connectTestBits(h, bit.bit_id, next.bit_id);
    const schema = { type: 'object', properties: { manager: { type: 'string', title: 'Manager' } } };
    flows[name] = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: name, start_bit_id: bit.bit_id, trail_context_schema: schema })).flow_id;
  };
  const start = (flow: string, args: Record<string, unknown> = {}) => h.owner.client.ok<TrailView>('start_trail', { flow_id: flows[flow], ...args });
  const notices = async (trailId: string) =>
    (await db().selectFrom('notifications').select(['principal_id', 'kind', 'actor_id', 'summary']).where('trail_id', '=', trailId).orderBy('id').execute()).map((n) => ({
      ...n,
      summary: JSON.parse(n.summary) as Record<string, unknown>,
    }));
  const stepOf = (who: Browser, trailId: string) => who.ok(who.get<StepPayload>(`/trails/${trailId}/step`));

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    for (const [name, full, permission] of [
      ['ann', 'Ann Lee', 'view'],
      ['bo', 'Bo Berg', 'view'],
      ['cy', 'Cy Admin', 'admin'],
    ] as const) {
      people[name] = await h.principal({ kind: 'person', permission, capabilities: ['read', 'run'] });
      await db().updateTable('principals').set({ name: full, email: `${name}@example.com` }).where('id', '=', people[name].principalId).execute();
      browsers[name] = await signedIn(h.services, web.origin, people[name].principalId);
    }
    finance = randomUUID();
    const now = new Date().toISOString();
    await db().insertInto('groups').values({ id: finance, account_id: h.accountId, scope_id: null, name: 'Finance', description: null, created_at: now, updated_at: now }).execute();
    for (const name of ['ann', 'bo'] as const) {
      await db().insertInto('group_members').values({ group_id: finance, principal_id: people[name].principalId, account_id: h.accountId, added_at: now }).execute();
    }
    const otherAccount = await h.services.auth.createAccount('elsewhere');
    stranger = await h.principal({ accountId: otherAccount, kind: 'person' });
    await db().updateTable('principals').set({ email: 'stranger@example.com' }).where('id', '=', stranger.principalId).execute();
    await flowFor('starter', 'starter');
    await flowFor('person', `person:${people.bo.principalId}`, 'PT4H');
    await flowFor('group', `group:${finance}`);
    await flowFor('context', 'context:manager');
    await flowFor('anyone', null);
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('resolves each form as the trail enters the step, says who it waits for, and tells them', async () => {
    const started = await browsers.ann.ok(browsers.ann.post<TrailView>('/trails', { flow_id: flows.starter }));
    expect(started.current_step?.assignee).toEqual({ principal_id: people.ann.principalId, name: 'Ann Lee', group_id: null, group_name: null, claimed: false });
    // The starter is the actor: not told of their own start.
    expect(await notices(started.trail_id)).toEqual([]);

    const forBo = await start('person');
    expect(forBo.current_step).toMatchObject({ assignee: { principal_id: people.bo.principalId, name: 'Bo Berg' }, overdue: false });
    expect(forBo.current_step?.waiting_for).toMatch(/^Waits for Bo Berg, due \d{4}-.*; only they \(or an Admin, by reassigning it\) may answer and advance it\.$/);
    // Due: entered plus the bit's PT4H.
    const entered = Date.parse(forBo.current_step?.entered_date_time_utc ?? '');
    expect(Date.parse(forBo.current_step?.due_date_time_utc ?? '') - entered).toBe(4 * 3_600_000);
    expect(await notices(forBo.trail_id)).toEqual([
      { principal_id: people.bo.principalId, kind: 'assigned', actor_id: h.owner.principalId, summary: expect.objectContaining({ flow_title: 'person', step_title: 'person step', due_date_time_utc: forBo.current_step?.due_date_time_utc }) },
    ]);

    const forFinance = await start('group');
    expect(forFinance.current_step?.assignee).toEqual({ principal_id: null, name: null, group_id: finance, group_name: 'Finance', claimed: false });
    expect((await notices(forFinance.trail_id)).map((n) => n.principal_id).sort()).toEqual([people.ann.principalId, people.bo.principalId].sort());
    // The group's name, which the app's list and the mail say ("Your group Finance has a step to do").
    for (const n of await notices(forFinance.trail_id)) expect(n.summary).toMatchObject({ group_id: finance, group_name: 'Finance' });

    const byContext = await start('context', { trail_context: { manager: 'CY@Example.com' } });
    expect(byContext.current_step?.assignee).toMatchObject({ principal_id: people.cy.principalId, name: 'Cy Admin' });
    const unnamed = await start('context', { trail_context: {} });
    expect(unnamed.current_step?.assignee).toBeNull();
    expect(unnamed.current_step?.waiting_for).toBe("Open to anyone who may run the trail: the bit names the person in trail_context.manager, which this trail's context does not give.");
    const nobody = await start('context', { trail_context: { manager: 'stranger@example.com' } });
    expect(nobody.current_step?.assignee).toBeNull();
    expect(nobody.current_step?.waiting_for).toContain('names nobody of this account');
    expect(await notices(nobody.trail_id)).toEqual([]);
  });

  it('refuses the step to everyone but its assignee, agents and Admins included, in words a person reads', async () => {
    const trail = await start('person');
    const agent = await h.owner.client.fail('submit_step_data', { trail_id: trail.trail_id, data: [{ element_id: notes.person, value: { value: 'x' } }] });
    expect(agent).toMatchObject({ code: 'STEP_ASSIGNED', status: 409, details: { assignee: { principal_id: people.bo.principalId, name: 'Bo Berg' } } });
    expect(agent.message).toBe('Step "person step" is assigned to Bo Berg: an agent must not answer it, and it needs no transfer_step. Tell the user it waits for Bo Berg; get_trail shows when it has moved on.');
    expect((await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id })).code).toBe('STEP_ASSIGNED');
    for (const who of ['ann', 'cy'] as const) {
      const refused = await browsers[who].post(`/trails/${trail.trail_id}/step/advance`, {});
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'STEP_ASSIGNED', message: 'Bo Berg is doing step "person step"; ask them or an Admin to hand it to you.' });
      expect((await stepOf(browsers[who], trail.trail_id)).may).toMatchObject({ answer: false, advance: false, claim: false, release: false, assign: who === 'cy' });
    }
    expect((await stepOf(browsers.bo, trail.trail_id)).may).toMatchObject({ answer: true, advance: true, claim: false, release: true });
    const moved = await browsers.bo.ok(browsers.bo.post<StepPayload>(`/trails/${trail.trail_id}/step/advance`, {}));
    // The next step names nobody: open to anyone again.
    expect(moved.step).toMatchObject({ bit_title: 'person done', assignee: null, due_date_time_utc: null });
  });

  it('lets a member claim a group step, refuses it to the others, releases it, and an Admin reassigns it', async () => {
    const trail = await start('group');
    const id = trail.trail_id;
    expect((await stepOf(browsers.ann, id)).may).toMatchObject({ claim: true, answer: true, release: false });
    expect((await stepOf(browsers.cy, id)).may).toMatchObject({ claim: false, answer: false, assign: true });
    const claimed = await browsers.ann.ok(browsers.ann.post<StepPayload>(`/trails/${id}/step/claim`, {}));
    expect(claimed.step?.assignee).toEqual({ principal_id: people.ann.principalId, name: 'Ann Lee', group_id: finance, group_name: 'Finance', claimed: true });
    const taken = await browsers.bo.post(`/trails/${id}/step/claim`, {});
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'STEP_ASSIGNED', message: 'Ann Lee is doing step "group step"; ask them or an Admin to hand it to you.' });
    expect((await browsers.bo.post(`/trails/${id}/step/release`, {})).body.error).toMatchObject({ code: 'STEP_ASSIGNED' });
    const released = await browsers.ann.ok(browsers.ann.post<StepPayload>(`/trails/${id}/step/release`, {}));
    expect(released.step?.assignee).toMatchObject({ principal_id: null, group_id: finance, claimed: false });
    // Released again: nobody holds it, nothing changes (no event either).
    const events = async () => (await db().selectFrom('events').select('seq').where('resource_id', '=', id).execute()).length;
    const recorded = await events();
    expect((await browsers.ann.ok(browsers.ann.post<StepPayload>(`/trails/${id}/step/release`, {}))).step?.assignee).toMatchObject({ principal_id: null, group_id: finance });
    expect(await events()).toBe(recorded);
    // Bo answers the group's step: that claims it for him.
    const saved = await browsers.bo.ok(browsers.bo.post<StepPayload>(`/trails/${id}/step/answers`, { data: [{ element_id: notes.group, value: { value: 'mine now' } }] }));
    expect(saved.step?.assignee).toMatchObject({ principal_id: people.bo.principalId, claimed: true });

    // Only an Admin reassigns; a person or group nobody can see is not found.
    expect((await browsers.ann.post(`/trails/${id}/step/assign`, { to: 'person:ann@example.com' })).body.error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await browsers.cy.post(`/trails/${id}/step/assign`, { to: 'person:stranger@example.com' })).body.error).toMatchObject({ code: 'PRINCIPAL_NOT_FOUND' });
    expect((await browsers.cy.post(`/trails/${id}/step/assign`, { to: `person:${stranger.principalId}` })).body.error).toMatchObject({ code: 'PRINCIPAL_NOT_FOUND' });
    expect((await browsers.cy.post(`/trails/${id}/step/assign`, { to: 'group:Nobody' })).body.error).toMatchObject({ code: 'GROUP_NOT_FOUND' });
    const before = (await notices(id)).length;
    const reassigned = await browsers.cy.ok(browsers.cy.post<StepPayload>(`/trails/${id}/step/assign`, { to: 'person:ANN@example.com' }));
    expect(reassigned.step?.assignee).toEqual({ principal_id: people.ann.principalId, name: 'Ann Lee', group_id: null, group_name: null, claimed: false });
    expect((await notices(id)).slice(before)).toEqual([expect.objectContaining({ principal_id: people.ann.principalId, kind: 'assigned', actor_id: people.cy.principalId })]);
    const opened = await browsers.cy.ok(browsers.cy.post<StepPayload>(`/trails/${id}/step/assign`, { to: null }));
    expect(opened.step?.assignee).toBeNull();
    expect(opened.may).toMatchObject({ answer: true, claim: true });
  });

  it('hands a step to a person or a group with transfer_step, the reason kept', async () => {
    const trail = await start('anyone');
    expect((await h.owner.client.fail('transfer_step', { trail_id: trail.trail_id, reason: 'money', to: 'group:Nobody' })).code).toBe('GROUP_NOT_FOUND');
    expect((await h.owner.client.fail('transfer_step', { trail_id: trail.trail_id, reason: 'money', to: 'team:Finance' })).code).toBe('VALIDATION_ERROR');
    await h.owner.client.ok('transfer_step', { trail_id: trail.trail_id, reason: 'Finance signs off', to: 'group:Finance' });
    const got = await h.owner.client.ok<TrailView>('get_trail', { trail_id: trail.trail_id });
    expect(got.status).toBe('waiting_for_person');
    expect(got.current_step).toMatchObject({ transfer_reason: 'Finance signs off', assignee: { group_id: finance, group_name: 'Finance', principal_id: null } });
    expect((await notices(trail.trail_id)).map((n) => n.principal_id).sort()).toEqual([people.ann.principalId, people.bo.principalId].sort());
    // An agent (not an Admin) may not hand on a step that waits for someone else: it waits for them.
    const agent = await h.principal({ kind: 'agent', permission: 'edit', capabilities: ['read', 'run'] });
    expect((await agent.client.fail('transfer_step', { trail_id: trail.trail_id, reason: 'again', to: 'person:cy@example.com' })).code).toBe('STEP_ASSIGNED');
    const toAnn = await start('anyone');
    await h.owner.client.ok('transfer_step', { trail_id: toAnn.trail_id, reason: 'Ann knows', to: 'person:ann@example.com' });
    expect((await h.owner.client.ok<TrailView>('get_trail', { trail_id: toAnn.trail_id })).current_step?.assignee).toMatchObject({ principal_id: people.ann.principalId });
  });

  it('takes a due time at start, bounds the step by it, and marks what is overdue', async () => {
    const past = await h.owner.client.fail('start_trail', { flow_id: flows.person, due_date_time_utc: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'due_date_time_utc' })] } });
    expect((await h.owner.client.fail('start_trail', { flow_id: flows.person, due_date_time_utc: 'tomorrow' })).code).toBe('VALIDATION_ERROR');
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    const trail = await start('person', { due_date_time_utc: soon });
    // PT4H would end after the trail's own due time: the step is due with the trail.
    expect(trail).toMatchObject({ due_date_time_utc: soon, overdue: false, current_step: { due_date_time_utc: soon, overdue: false } });
    // Time passes (the rows as the clock would leave them).
    const gone = new Date(Date.now() - 60_000).toISOString();
    await db().updateTable('trails').set({ due_at: gone, step_due_at: gone }).where('id', '=', trail.trail_id).execute();
    const late = await h.owner.client.ok<TrailView>('get_trail', { trail_id: trail.trail_id });
    expect(late).toMatchObject({ overdue: true, current_step: { overdue: true } });
    expect(late.current_step?.waiting_for).toBe(`Waits for Bo Berg, overdue since ${gone}; only they (or an Admin, by reassigning it) may answer and advance it.`);
    const listed = await h.owner.client.ok<{ trails: Array<{ trail_id: string; overdue: boolean; due_date_time_utc: string | null }> }>('list_trails', { flow_id: flows.person });
    expect(listed.trails.find((t) => t.trail_id === trail.trail_id)).toMatchObject({ overdue: true, due_date_time_utc: gone });
    const overdue = await browsers.bo.ok(browsers.bo.get<Inbox>('/inbox?overdue=true'));
    expect(overdue.items.map((i) => i.trail_id)).toEqual([trail.trail_id]);
    expect(overdue.items[0]).toMatchObject({ overdue: true, due_date_time_utc: gone, reasons: ['assigned_to_me'] });
  });

  it('shows mine, my groups\' and (for an Admin) everyone\'s, with counts, by due time too', async () => {
    const ownGroup = await start('group');
    await browsers.bo.ok(browsers.bo.post(`/trails/${ownGroup.trail_id}/step/claim`, {}));
    const mine = await browsers.bo.ok(browsers.bo.get<Inbox>('/inbox?limit=100'));
    const bos = (await db().selectFrom('trails').select('id').where('step_assignee', '=', people.bo.principalId).where('status', 'in', ['running', 'waiting_for_person']).execute()).map((r) => r.id);
    const anyone = (await db().selectFrom('trails').select('id').where('needs_person', '=', 1).execute()).map((r) => r.id);
    expect(new Set(mine.items.map((i) => i.trail_id))).toEqual(new Set([...bos, ...anyone]));
    expect(mine.counts).toMatchObject({ total: mine.items.length, mine: mine.items.length, assigned_to_me: bos.length, everyone: null });
    expect(mine.items.find((i) => i.trail_id === ownGroup.trail_id)).toMatchObject({ reasons: ['assigned_to_me', 'my_group'], assignee: { name: 'Bo Berg', group_name: 'Finance', claimed: true } });

    const groups = await browsers.ann.ok(browsers.ann.get<Inbox>('/inbox?view=groups&limit=100'));
    const offered = (await db().selectFrom('trails').select('id').where('step_group', '=', finance).where('status', 'in', ['running', 'waiting_for_person']).execute()).map((r) => r.id);
    expect(new Set(groups.items.map((i) => i.trail_id))).toEqual(new Set(offered));
    expect(groups.counts).toMatchObject({ total: offered.length, groups: offered.length, my_group: offered.length });
    expect(groups.items.find((i) => i.trail_id === ownGroup.trail_id)?.assignee).toMatchObject({ name: 'Bo Berg', claimed: true });

    expect((await browsers.ann.get('/inbox?view=everyone')).body.error).toMatchObject({ code: 'FORBIDDEN' });
    const everyone = await browsers.cy.ok(browsers.cy.get<Inbox>('/inbox?view=everyone&limit=100'));
    const open = await db().selectFrom('trails').select('id').where('account_id', '=', h.accountId).where('status', 'in', ['running', 'waiting_for_person']).execute();
    expect(everyone.items).toHaveLength(open.length);
    expect(everyone.counts).toMatchObject({ total: open.length, everyone: open.length });

    // Soonest due first, none last, a page at a time.
    const byDue: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Inbox = await browsers.cy.ok(browsers.cy.get<Inbox>(`/inbox?view=everyone&sort=due&limit=3${cursor ? `&cursor=${cursor}` : ''}`));
      byDue.push(...page.items.map((i) => i.due_date_time_utc ?? '~'));
      cursor = page.next_cursor;
    } while (cursor);
    expect(byDue).toHaveLength(open.length);
    expect(byDue).toEqual([...byDue].sort());
    expect(byDue[0]).not.toBe('~');
  });
});
