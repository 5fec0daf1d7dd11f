/**
 * The web app's REST surface (issue 11) against the real HTTP app on each engine, driven as the app drives it:
 * a person signed in by a link, the session cookie and the CSRF header. Start, step payload, answers, advance
 * with a chosen connection, transfer, cancel, the inbox (contents, filters, counts, pages), and isolation:
 * another account's session never sees the trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { Browser, signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import type { Inbox } from '../../services/trails/inbox.service.js';
import type { StepPayload } from '../../services/trails/step-form.service.js';
import type { TrailView } from '../../services/trails/shapes.js';

interface Added {
  bit_id: string;
  minted_node_ids: Record<string, string>;
}

const answer = (element_id: string, element_type: string, inner: unknown) => ({ element_id, element_type, value: { value: inner } });

describe.each(ENGINES)('the web app REST surface on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let person: Principal;
  let browser: Browser;
  const bit: Record<string, Added> = {};
  let requests: string;
  let approvals: string;
  const id = (b: string, key: string) => bit[b].minted_node_ids[key];

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['read', 'run'] });
    browser = await signedIn(h.services, web.origin, person.principalId);
    const add = (args: Record<string, unknown>) => h.owner.client.ok<Added>('add_bit', args);
    bit.standard = await add({ bit_title: 'Standard path', bit_body: 'Handle it the usual way.' });
    bit.express = await add({ bit_title: 'Express approval', human_required: true, bit_body: 'A manager approves.' });
    bit.notes = await add({ bit_title: 'Extra notes', bit_body: 'Write down anything unusual.' });
    bit.intake = await add({
      bit_title: 'Intake',
      bit_body: ['Collect the request.', '', '[text-area: Notes](waymark-node:notes)', '', '[dropdown: Route](waymark-node:route)', '- [Standard](waymark-node:std)', '- [Express](waymark-node:exp)'].join('\n'),
      elements: [
        { key: 'notes', type: 'text-area', props: { required: true, minLength: 3 } },
        { key: 'route', type: 'dropdown', props: { required: true }, items: [{ key: 'std', value: 'standard' }, { key: 'exp', value: 'express' }] },
      ],
    });
    for (const target of ['standard', 'express', 'notes']) await h.owner.client.ok('connect_bits', { source_bit_id: bit.intake.bit_id, target_bit_id: bit[target].bit_id });
    // Standard and Express depend on the route; Extra notes is always available.
    const current = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: bit.intake.bit_id });
    let body = current.bit_body;
    for (const [target, option] of [['standard', 'std'], ['express', 'exp']]) {
      const pattern = new RegExp(`\\]\\(bit-connection:${bit[target].bit_id}\\?node=([0-9a-f-]+)\\)`);
      body = body.replace(pattern, (_m, node: string) => `](bit-connection:${bit[target].bit_id}?node=${node}&when=${id('intake', 'route')}:${id('intake', option)})`);
    }
    await h.owner.client.ok('update_bit', { bit_id: bit.intake.bit_id, bit_body: body, content_format: 'markdown' });
    requests = (
      await h.owner.client.ok<{ flow_id: string }>('create_flow', {
        flow_title: 'Requests',
        start_bit_id: bit.intake.bit_id,
        trail_context_schema: { type: 'object', properties: { requester: { type: 'string', format: 'email' } }, required: ['requester'] },
      })
    ).flow_id;
    approvals = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Approvals', start_bit_id: bit.express.bit_id })).flow_id;
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('starts a trail from a context form, answers with a field error, advances by a chosen connection, transfers and cancels', async () => {
    const refused = await browser.post('/trails', { flow_id: requests, trail_context: { requester: 'not an email' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'TRAIL_CONTEXT_INVALID', details: { issues: [expect.objectContaining({ path: 'trail_context.requester' })] } });
    const started = await browser.ok(browser.post<TrailView>('/trails', { flow_id: requests, trail_context: { requester: 'ann@example.com' }, trail_title: 'Ann' }));
    expect(started).toMatchObject({ status: 'running', trail_title: 'Ann', started_by: person.principalId, current_step: { bit_id: bit.intake.bit_id } });
    const trail = started.trail_id;

    const payload = await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`));
    // The schema gives the field no title: the context is labelled by the field's name. No due time was given.
    expect(payload.trail).toEqual({
      trail_id: trail,
      trail_title: 'Ann',
      flow_id: requests,
      flow_title: 'Requests',
      status: 'running',
      trail_context: { requester: 'ann@example.com' },
      context_labels: { requester: 'requester' },
      due_date_time_utc: null,
      overdue: false,
    });
    // Nobody is named for the step: any person may take it; only an Admin reassigns.
    expect(payload.may).toEqual({ answer: true, advance: true, transfer: true, cancel: true, claim: true, release: false, assign: false });
    const step = payload.step!;
    expect(step.body[0]).toEqual({ type: 'p', children: [{ text: 'Collect the request.' }] });
    expect(step.elements.map((e) => [e.element_id, e.element_type, e.required])).toEqual([
      [id('intake', 'notes'), 'TextArea', true],
      [id('intake', 'route'), 'Dropdown', true],
    ]);
    expect(step.elements[0].config).toMatchObject({ label: 'Notes', minLength: 3 });
    expect(step.elements[0].answer_rule).toMatch(/minLength, maxLength/);
    expect(step.required_missing).toEqual([id('intake', 'notes'), id('intake', 'route')]);
    expect(step.connections_available).toEqual([expect.objectContaining({ target_bit_id: bit.notes.bit_id, target_bit_title: 'Extra notes', condition: null })]);
    expect(step).not.toHaveProperty('bit_body');

    const invalid = await browser.post(`/trails/${trail}/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'ab')] });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({ code: 'ANSWER_INVALID', details: { issues: [expect.objectContaining({ element_id: id('intake', 'notes') })] } });
    await browser.ok(browser.post(`/trails/${trail}/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'Urgent'), answer(id('intake', 'route'), 'Dropdown', id('intake', 'std'))] }));
    const answered = await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`));
    expect(answered.step!.required_missing).toEqual([]);
    const choices = answered.step!.connections_available.map((c) => c.target_bit_title);
    expect(choices).toEqual(['Standard path', 'Extra notes']);
    const choose = await browser.post(`/trails/${trail}/advance`, {});
    expect(choose.status).toBe(422);
    expect(choose.body.error?.details?.available_connections).toHaveLength(2);
    const toNotes = answered.step!.connections_available.find((c) => c.target_bit_id === bit.notes.bit_id)!;
    const advanced = await browser.ok(browser.post<TrailView>(`/trails/${trail}/advance`, { connection_id: toNotes.connection_id }));
    expect(advanced.current_step?.bit_title).toBe('Extra notes');
    // A move answers what changed; the history is the trail's own route.
    const moved = await browser.ok(browser.get<TrailView>(`/trails/${trail}`));
    expect(moved.history[0]).toMatchObject({ left_by: person.principalId, left_by_connection_id: toNotes.connection_id });

    const blank = await browser.post(`/trails/${trail}/transfer`, { reason: '  ' });
    expect(blank.status).toBe(422);
    const transferred = await browser.ok(browser.post<TrailView>(`/trails/${trail}/transfer`, { reason: 'Needs the legal team' }));
    expect(transferred.status).toBe('waiting_for_person');
    expect(transferred.current_step?.transfer_reason).toBe('Needs the legal team');

    const cancelled = await browser.ok(browser.post<TrailView>(`/trails/${trail}/cancel`, { reason: 'Duplicate request' }));
    expect(cancelled.status).toBe('cancelled');
    expect((await browser.ok(browser.get<TrailView>(`/trails/${trail}`))).history.at(-1)?.cancellation).toMatchObject({ reason: 'Duplicate request', cancelled_by: person.principalId });
    const again = await browser.post(`/trails/${trail}/cancel`, {});
    expect([again.status, again.body.error?.code]).toEqual([409, 'TRAIL_NOT_RUNNING']);
    const ended = await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`));
    expect(ended).toMatchObject({ step: null, may: { answer: false, advance: false, transfer: false, cancel: false } });
    const got = await browser.ok(browser.get<TrailView>(`/trails/${trail}`));
    expect(got.history.map((s) => s.bit_title)).toEqual(['Intake', 'Extra notes']);
    const people = await browser.ok(browser.get<{ people: Array<{ principal_id: string; kind: string }> }>(`/trails/${trail}/people`));
    expect(people.people).toEqual([{ principal_id: person.principalId, name: expect.any(String), kind: 'person' }]);
  });

  it('save_step and advance_step: the step form\'s Save and Continue in one call each, answering the step payload, with the tools\' refusals', async () => {
    const trail = (await browser.ok(browser.post<TrailView>('/trails', { flow_id: requests, trail_context: { requester: 'dee@example.com' } }))).trail_id;
    const invalid = await browser.post(`/trails/${trail}/step/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'ab')] });
    expect([invalid.status, invalid.body.error?.code]).toEqual([422, 'ANSWER_INVALID']);
    expect(invalid.body.error?.details).toMatchObject({ issues: [expect.objectContaining({ element_id: id('intake', 'notes') })] });
    const unknown = await browser.post(`/trails/${trail}/step/answers`, { data: [answer('nope', 'TextArea', 'x')] });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'ELEMENT_NOT_FOUND']);

    const saved = await browser.ok(browser.post<StepPayload>(`/trails/${trail}/step/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'Urgent'), answer(id('intake', 'route'), 'Dropdown', id('intake', 'std'))] }));
    // The same payload the step operation reads afterwards: the answers, what is missing, the ways on, the Slate body.
    expect(saved).toEqual(await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`)));
    expect(saved.step!.answers.map((a) => [a.element_id, a.value])).toEqual([
      [id('intake', 'notes'), 'Urgent'],
      [id('intake', 'route'), id('intake', 'std')],
    ]);
    expect(saved.step!.required_missing).toEqual([]);
    expect(saved.step!.connections_available.map((c) => c.target_bit_title)).toEqual(['Standard path', 'Extra notes']);
    expect(saved.step!.body[0]).toEqual({ type: 'p', children: [{ text: 'Collect the request.' }] });
    // Every way on with its condition, for the form to open them with unsaved answers; nothing done yet; the bits ahead.
    expect(saved.step!.connections.map((c) => [c.target_bit_title, c.condition])).toEqual([
      ['Standard path', { element_id: id('intake', 'route'), option_ids: [id('intake', 'std')] }],
      ['Express approval', { element_id: id('intake', 'route'), option_ids: [id('intake', 'exp')] }],
      ['Extra notes', null],
    ]);
    expect(saved.step!.steps_done).toEqual([]);
    expect(saved.step!.ahead.map((b) => [b.bit_title, b.connections.length]).sort()).toEqual([
      ['Express approval', 0],
      ['Extra notes', 0],
      ['Standard path', 0],
    ]);

    const choose = await browser.post(`/trails/${trail}/step/advance`, {});
    expect([choose.status, choose.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(choose.body.error?.details?.available_connections).toHaveLength(2);
    const toStandard = saved.step!.connections_available.find((c) => c.target_bit_id === bit.standard.bit_id)!;
    const moved = await browser.ok(browser.post<StepPayload>(`/trails/${trail}/step/advance`, { connection_id: toStandard.connection_id, expected_step_id: saved.step!.step_id }));
    expect(moved).toEqual(await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`)));
    expect(moved.step).toMatchObject({ bit_title: 'Standard path', seq: 2, body: [{ type: 'p', children: [{ text: 'Handle it the usual way.' }] }] });
    const retried = await browser.post(`/trails/${trail}/step/advance`, { connection_id: toStandard.connection_id, expected_step_id: saved.step!.step_id });
    expect([retried.status, retried.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(moved.step!.steps_done).toEqual([{ step_id: saved.step!.step_id, seq: 1, bit_title: 'Intake', left_by: person.principalId, left_date_time_utc: expect.any(String) }]);
    // Answers for the step the trail has left are refused as a retried advance is, naming the step it is at; nothing is kept.
    const late = await browser.post(`/trails/${trail}/step/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'Later')], expected_step_id: saved.step!.step_id });
    expect([late.status, late.body.error?.code, late.body.error?.details?.current_step]).toEqual([
      422,
      'VALIDATION_ERROR',
      { step_id: moved.step!.step_id, seq: 2, bit_id: bit.standard.bit_id, bit_title: 'Standard path' },
    ]);
    expect((await browser.ok(browser.get<StepPayload>(`/trails/${trail}/step`))).step!.answers).toEqual([]);

    const completed = await browser.ok(browser.post<StepPayload>(`/trails/${trail}/step/advance`, {}));
    expect(completed).toMatchObject({ trail: { status: 'completed' }, step: null, may: { answer: false, advance: false, transfer: false, cancel: false } });
    const over = await browser.post(`/trails/${trail}/step/answers`, { data: [answer(id('intake', 'notes'), 'TextArea', 'Late')] });
    expect([over.status, over.body.error?.code]).toEqual([409, 'TRAIL_NOT_RUNNING']);
  });

  it('refuses a write without the run capability (403) and an agent on a human_required step (409), as the tools do', async () => {
    const reader = await h.principal({ kind: 'person', capabilities: ['read'] });
    const link = await h.services.signin.createLink({ principalId: reader.principalId, capabilities: ['waymark.read'] });
    const readOnly = new Browser(web.origin);
    expect((await readOnly.open(`${web.origin}/app/signin?token=${link.token}`)).status).toBe(303);
    await readOnly.me();
    const start = await readOnly.post('/trails', { flow_id: approvals });
    expect([start.status, start.body.error?.details]).toEqual([403, { required_capability: 'waymark.run' }]);
    // The agent owner, by Bearer token over REST, on the human_required start step of Approvals.
    const auth = { authorization: `Bearer ${h.owner.token}`, 'content-type': 'application/json' };
    const trail = (await (await fetch(`${web.origin}/api/v1/trails`, { method: 'POST', headers: auth, body: JSON.stringify({ flow_id: approvals }) })).json()) as { data: TrailView };
    const advance = await fetch(`${web.origin}/api/v1/trails/${trail.data.trail_id}/advance`, { method: 'POST', headers: auth, body: '{}' });
    expect(advance.status).toBe(409);
    expect(((await advance.json()) as { error: { code: string } }).error.code).toBe('HUMAN_REQUIRED');
    for (const [path, body] of [['step/advance', {}], ['step/answers', { data: [answer('x', 'TextArea', 'x')] }]] as const) {
      const refused = await fetch(`${web.origin}/api/v1/trails/${trail.data.trail_id}/${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect([path, refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([path, 409, 'HUMAN_REQUIRED']);
    }
    const saveReadOnly = await readOnly.post(`/trails/${trail.data.trail_id}/step/answers`, { data: [answer('x', 'TextArea', 'x')] });
    expect([saveReadOnly.status, saveReadOnly.body.error?.details]).toEqual([403, { required_capability: 'waymark.run' }]);
    const payload = (await (await fetch(`${web.origin}/api/v1/trails/${trail.data.trail_id}/step`, { headers: auth })).json()) as { data: StepPayload };
    // The Admin agent may reassign the step to a person, but not take it.
    expect(payload.data.may).toEqual({ answer: false, advance: false, transfer: true, cancel: true, claim: false, release: false, assign: true });
    await h.owner.client.ok('cancel_trail', { trail_id: trail.data.trail_id });
  });

  it('the inbox: my trails, steps handed to a person with the reason, human_required steps; filters, counts, newest first, pages', async () => {
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('other'), kind: 'person' });
    const start = (who: Principal, flow: string, context: Record<string, unknown> = {}) => who.client.ok<TrailView>('start_trail', { flow_id: flow, trail_context: context });
    const mine = await browser.ok(browser.post<TrailView>('/trails', { flow_id: requests, trail_context: { requester: 'me@example.com' } }));
    const handed = await start(h.owner, requests, { requester: 'bob@example.com' });
    await h.owner.client.ok('transfer_step', { trail_id: handed.trail_id, reason: 'Customer asked for a person' });
    const human = await start(h.owner, approvals);
    const agentOnly = await start(h.owner, requests, { requester: 'cy@example.com' });
    const done = await browser.ok(browser.post<TrailView>('/trails', { flow_id: approvals }));
    await browser.ok(browser.post(`/trails/${done.trail_id}/cancel`, {}));
    const foreign = await stranger.client.fail('get_trail', { trail_id: mine.trail_id });
    expect(foreign.code).toBe('TRAIL_NOT_FOUND');

    const inbox = await browser.ok(browser.get<Inbox>('/inbox'));
    const ids = inbox.items.map((i) => i.trail_id);
    // Newest change first: the transfer came after the start of `handed`, and `human` after it.
    expect(ids).toEqual([human.trail_id, handed.trail_id, mine.trail_id]);
    expect(ids).not.toContain(agentOnly.trail_id);
    expect(ids).not.toContain(done.trail_id);
    const byId = new Map(inbox.items.map((i) => [i.trail_id, i]));
    expect(byId.get(mine.trail_id)).toMatchObject({ reasons: ['started_by_me'], flow_title: 'Requests', bit_title: 'Intake', human_required: false, transfer: null, status: 'running' });
    expect(byId.get(handed.trail_id)).toMatchObject({
      reasons: ['transferred'],
      status: 'waiting_for_person',
      transfer: { reason: 'Customer asked for a person', transferred_by: h.owner.principalId },
    });
    expect(byId.get(human.trail_id)).toMatchObject({ reasons: ['human_required'], human_required: true, bit_title: 'Express approval', flow_title: 'Approvals' });
    expect(inbox.counts).toEqual({ total: 3, mine: 3, groups: 0, everyone: null, started_by_me: 1, transferred: 1, human_required: 1, assigned_to_me: 0, my_group: 0 });
    const handedPeople = await browser.ok(browser.get<{ people: Array<{ principal_id: string; kind: string }> }>(`/trails/${handed.trail_id}/people`));
    expect(handedPeople.people).toEqual([{ principal_id: h.owner.principalId, name: expect.any(String), kind: 'agent' }]);
    expect(inbox.next_cursor).toBeNull();

    const requestsOnly = await browser.ok(browser.get<Inbox>(`/inbox?flow_id=${requests}`));
    expect(requestsOnly.items.map((i) => i.trail_id)).toEqual([handed.trail_id, mine.trail_id]);
    expect(requestsOnly.counts).toEqual({ total: 2, mine: 2, groups: 0, everyone: null, started_by_me: 1, transferred: 1, human_required: 0, assigned_to_me: 0, my_group: 0 });
    const waiting = await browser.ok(browser.get<Inbox>('/inbox?status=waiting_for_person'));
    expect(waiting.items.map((i) => i.trail_id)).toEqual([handed.trail_id]);
    const byReason = await browser.ok(browser.get<Inbox>('/inbox?reason=human_required'));
    expect(byReason.items.map((i) => i.trail_id)).toEqual([human.trail_id]);

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: Inbox = await browser.ok(browser.get<Inbox>(`/inbox?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      pages.push(page.items.map((i) => i.trail_id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(pages).toEqual([[human.trail_id, handed.trail_id], [mine.trail_id]]);

    const bad = await browser.get('/inbox?limit=0');
    expect([bad.status, bad.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect((await browser.get('/inbox?status=completed')).status).toBe(422);
    expect((await browser.get('/inbox?cursor=nope')).status).toBe(422);

    // The agent that started them sees only the trail it may act on.
    const agentInbox = (await (await fetch(`${web.origin}/api/v1/inbox`, { headers: { authorization: `Bearer ${h.owner.token}` } })).json()) as { data: Inbox };
    expect(agentInbox.data.items.map((i) => i.trail_id)).toEqual([agentOnly.trail_id]);

    // Another account's person, signed in: an empty inbox, and the trail does not exist for them.
    const other = await signedIn(h.services, web.origin, stranger.principalId);
    expect(await other.ok(other.get<Inbox>('/inbox'))).toEqual({ items: [], counts: { total: 0, mine: 0, groups: 0, everyone: 0, started_by_me: 0, transferred: 0, human_required: 0, assigned_to_me: 0, my_group: 0 }, next_cursor: null });
    for (const path of [`/trails/${mine.trail_id}`, `/trails/${mine.trail_id}/step`]) {
      const res = await other.get(path);
      expect([res.status, res.body.error?.code]).toEqual([404, 'TRAIL_NOT_FOUND']);
    }
    const bodies: Record<string, unknown> = { answers: { data: [answer('x', 'TextArea', 'y')] }, advance: {}, transfer: { reason: 'mine now' }, cancel: { reason: 'mine now' } };
    for (const [action, body] of Object.entries(bodies)) {
      const res = await other.post(`/trails/${mine.trail_id}/${action}`, body);
      expect([action, res.status, res.body.error?.code]).toEqual([action, 404, 'TRAIL_NOT_FOUND']);
    }
    expect((await other.get(`/inbox?flow_id=${requests}`)).body.error?.code).toBe('FLOW_NOT_FOUND');
    expect((await other.get(`/flows/${requests}`)).status).toBe(404);
    expect((await h.owner.client.ok<TrailView>('get_trail', { trail_id: mine.trail_id })).status).toBe('running');
  });

  it('reads flows with their picture, bits as Slate and references for the author pages', async () => {
    const flows = await browser.ok(browser.get<{ flows: Array<{ flow_id: string }>; next_cursor: string | null }>('/flows?limit=1'));
    expect(flows.flows).toHaveLength(1);
    expect(flows.next_cursor).not.toBeNull();
    const flow = await browser.ok(browser.get<{ flow_title: string; graph: { bits: Array<{ bit_title: string }>; mermaid: string } }>(`/flows/${requests}?include_graph=true&format=mermaid`));
    expect(flow.flow_title).toBe('Requests');
    expect(flow.graph.bits.map((b) => b.bit_title)).toEqual(['Intake', 'Standard path', 'Express approval', 'Extra notes']);
    expect(flow.graph.mermaid).toMatch(/^flowchart/);
    const slate = await browser.ok(browser.get<{ content_format: string; bit_body: unknown[] }>(`/bits/${bit.intake.bit_id}?format=slate`));
    expect(slate.content_format).toBe('slate');
    expect(slate.bit_body[0]).toEqual({ type: 'p', children: [{ text: 'Collect the request.' }] });
    await h.owner.client.ok('create_reference', { reference_title: 'Refund policy', reference_content: [{ type: 'p', children: [{ text: 'Refunds are paid within 14 days.' }] }] });
    const found = await browser.ok(browser.get<{ results: Array<{ reference_title: string; reference_id: string }> }>('/references/search?query=refunds'));
    expect(found.results.map((r) => r.reference_title)).toEqual(['Refund policy']);
    const reference = await browser.ok(browser.get<{ reference_title: string }>(`/references/${found.results[0].reference_id}`));
    expect(reference.reference_title).toBe('Refund policy');
    const wrongType = await browser.get('/flows?is_active=maybe');
    expect([wrongType.status, wrongType.body.error?.details?.issues]).toEqual([422, [expect.objectContaining({ path: 'is_active' })]]);
    const unknown = await browser.get('/flows?colour=red');
    expect(unknown.status).toBe(422);
    const wrongMethod = await browser.post('/flows', {});
    expect([wrongMethod.status, wrongMethod.body.error?.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
  });
});
