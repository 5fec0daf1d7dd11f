/**
 * Isolation of the names a team's writes take (issue 27), beside the id probes of isolation.test.ts, which are
 * generated from the declarations' id fields and so never reach a field that names someone by email or name:
 * transfer_step's and assign_step's `to`, add_bit's `assignee`, add_group_members' `people`, and a comment's
 * @mentions. Another account's person or group, and a group of a scope the caller cannot see, answer exactly as a
 * name nobody has (the same code and words, the name aside), and nobody of them is told anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './engines.js';
import { startHarness, type Harness, type Principal } from './harness.js';
import { startWebServer, type WebServer } from './web-client.js';

interface Answer {
  status: number;
  body: { success: boolean; data?: Record<string, unknown>; error?: { code: string; message: string; details?: Record<string, unknown> } };
}

describe.each(ENGINES)('names of other accounts and hidden scopes on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let stranger: { token: string; principalId: string };
  let scoped: Principal;
  let trailId: string;
  let scopedTrailId: string;
  const theirGroup = 'Their desk';
  const hiddenGroup = 'Finance desk';

  const rest = async (token: string, method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${web.origin}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  /** An error with the name it was about taken out: what tells two refusals apart other than the name. */
  const without = (answer: Answer, name: string) => JSON.stringify({ status: answer.status, error: { ...answer.body.error, errorId: '<errorId>' } }).split(name).join('<NAME>');

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    const other = await h.services.auth.createAccount('Elsewhere');
    stranger = await h.services.auth.createToken({ accountId: other, permission: 'admin', capabilities: ['waymark.read', 'waymark.author', 'waymark.run'], kind: 'person', name: 'Sam Stranger', email: 'sam@elsewhere.example' });
    expect((await rest(stranger.token, 'POST', '/groups', { name: theirGroup })).status).toBe(200);
    // A group of a scope the scoped token below cannot see.
    const finance = await h.services.auth.createScope(h.accountId, 'finance');
    expect((await rest(h.owner.token, 'POST', '/groups', { name: hiddenGroup, scope_id: finance })).status).toBe(200);
    const sales = await h.services.auth.createScope(h.accountId, 'sales');
    scoped = await h.principal({ scopeId: sales, kind: 'person' });

    const bit = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Check the contract', bit_body: 'Check it.' });
    const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Contracts', start_bit_id: bit.bit_id });
    trailId = (await h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id: flow.flow_id })).trail_id;
    const salesBit = await scoped.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Call the client', bit_body: 'Call.', scope_id: sales });
    const salesFlow = await scoped.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Sales', start_bit_id: salesBit.bit_id, scope_id: sales });
    scopedTrailId = (await scoped.client.ok<{ trail_id: string }>('start_trail', { flow_id: salesFlow.flow_id })).trail_id;
  });
  afterAll(async () => {
    await web?.close();
    await h?.close();
  });

  it('hands no step to another account\'s person or group, nor to a group of a scope one cannot see: as a name nobody has', async () => {
    const cases: Array<[string, string, string, string]> = [
      // [who asks, trail, name of another account or hidden scope, a name nobody has]
      [h.owner.token, trailId, 'person:sam@elsewhere.example', 'person:nobody@elsewhere.example'],
      [h.owner.token, trailId, `person:${stranger.principalId}`, 'person:00000000-0000-4000-8000-000000000000'],
      [h.owner.token, trailId, `group:${theirGroup}`, 'group:No such desk'],
      [scoped.token, scopedTrailId, `group:${hiddenGroup}`, 'group:No such desk'],
    ];
    for (const [token, trail, theirs, nobodys] of cases) {
      for (const path of [`/trails/${trail}/transfer`, `/trails/${trail}/step/assign`]) {
        const body = (to: string) => (path.endsWith('transfer') ? { reason: 'Over to you.', to } : { to });
        const refused = await rest(token, 'POST', path, body(theirs));
        expect(refused.body.success, `${path} ${theirs}`).toBe(false);
        expect(['PRINCIPAL_NOT_FOUND', 'GROUP_NOT_FOUND']).toContain(refused.body.error?.code);
        expect(without(refused, theirs.slice(theirs.indexOf(':') + 1)), `${path} ${theirs}`).toBe(without(await rest(token, 'POST', path, body(nobodys)), nobodys.slice(nobodys.indexOf(':') + 1)));
      }
    }
  });

  it('names no one of another account as who does a bit\'s step, nor adds them to a group', async () => {
    for (const [theirs, nobodys] of [
      ['person:sam@elsewhere.example', 'person:nobody@elsewhere.example'],
      [`group:${theirGroup}`, 'group:No such desk'],
    ]) {
      const refused = await h.owner.client.fail('add_bit', { bit_title: 'Sign', bit_body: 'Sign it.', assignee: theirs });
      const missing = await h.owner.client.fail('add_bit', { bit_title: 'Sign', bit_body: 'Sign it.', assignee: nobodys });
      const strip = (e: { code: string; message: string }, name: string) => `${e.code} ${e.message.split(name.slice(name.indexOf(':') + 1)).join('<NAME>')}`;
      expect(strip(refused, theirs)).toBe(strip(missing, nobodys));
    }
    const { group_id } = (await rest(h.owner.token, 'POST', '/groups', { name: 'Our desk' })).body.data as { group_id: string };
    const refused = await rest(h.owner.token, 'POST', `/groups/${group_id}/members`, { people: ['sam@elsewhere.example'] });
    expect(without(refused, 'sam@elsewhere.example')).toBe(without(await rest(h.owner.token, 'POST', `/groups/${group_id}/members`, { people: ['nobody@elsewhere.example'] }), 'nobody@elsewhere.example'));
  });

  it('mentions no one of another account in a comment, and tells them nothing', async () => {
    const said = await rest(h.owner.token, 'POST', `/trails/${trailId}/comments`, { text: '@Sam Stranger and @sam@elsewhere.example, please look.' });
    expect(said.body).toEqual({ success: true, data: { mentions: [] } });
    const told = await h.store.store.db.selectFrom('notifications').select('id').where('principal_id', '=', stranger.principalId).execute();
    expect(told).toEqual([]);
    // Nor does the stranger see the comment, or the trail it is on.
    expect((await rest(stranger.token, 'GET', `/trails/${trailId}/comments`)).body.error?.code).toBe('TRAIL_NOT_FOUND');
  });
});
