/**
 * Groups, people's emails and a bit's assignee and expected duration (issue 27) on both engines, through the real
 * REST door (Bearer tokens) and the real MCP client: an Admin makes, renames and removes groups and chooses their
 * members by id or email; anyone of the account lists them; another account's group and person are not found; a
 * group a bit names is not removed; a bit stores a person or group by id and names them back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import type { GroupList, GroupWithMembers } from '../../services/groups/shapes.js';
import type { Directory, PersonView } from '../../services/auth/shapes.js';

interface Answer<T> {
  status: number;
  data: T;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

describe.each(ENGINES)('groups, emails and bit assignees on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let ada: string;
  let bo: string;
  let adaToken: string;

  const rest = async <T>(method: string, path: string, body?: unknown, token = h.owner.token): Promise<Answer<T>> => {
    const res = await fetch(`${web.origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: T; error?: Answer<T>['error'] };
    return { status: res.status, data: json.data, error: json.error };
  };
  const groupEvents = async (groupId: string) =>
    (await h.store.store.db.selectFrom('events').select(['operation', 'summary']).where('resource_type', '=', 'group').where('resource_id', '=', groupId).orderBy('seq').execute()).map((e) => e.operation);

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    const a = await h.services.auth.createToken({ accountId: h.accountId, permission: 'edit', capabilities: ['waymark.read', 'waymark.author', 'waymark.run'], kind: 'person', name: 'Ada', email: 'Ada@Example.com' });
    ada = a.principalId;
    adaToken = a.token;
    bo = (await h.services.auth.createToken({ accountId: h.accountId, permission: 'view', capabilities: ['waymark.read'], kind: 'person', name: 'Bo' })).principalId;
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('an Admin makes a group, adds people by email and id, renames it, takes one out and removes it; one event each', async () => {
    const made = await rest<GroupWithMembers>('POST', '/groups', { name: '  Onboarding  ', description: 'New starters' });
    expect(made.status).toBe(200);
    expect(made.data).toMatchObject({ name: 'Onboarding', description: 'New starters', scope_id: null, member_count: 0, members: [] });
    const id = made.data.group_id;

    const added = await rest<GroupWithMembers>('POST', `/groups/${id}/members`, { people: ['ada@example.COM', bo, bo] });
    expect(added.data.members).toEqual([
      { principal_id: ada, name: 'Ada' },
      { principal_id: bo, name: 'Bo' },
    ]);
    // Adding who is already in it changes nothing and records nothing.
    expect((await rest<GroupWithMembers>('POST', `/groups/${id}/members`, { people: [ada] })).data.member_count).toBe(2);

    const listed = await rest<GroupList>('GET', '/groups', undefined, adaToken);
    expect(listed.data.groups.map((g) => [g.name, g.member_count])).toEqual([['Onboarding', 2]]);
    expect((await rest<GroupWithMembers>('GET', `/groups/${id}`, undefined, adaToken)).data.members.map((m) => m.name)).toEqual(['Ada', 'Bo']);

    const renamed = await rest<GroupWithMembers>('POST', `/groups/${id}`, { name: 'People team', description: null });
    expect([renamed.data.name, renamed.data.description]).toEqual(['People team', null]);
    expect((await rest<GroupWithMembers>('DELETE', `/groups/${id}/members/${bo}`)).data.members).toEqual([{ principal_id: ada, name: 'Ada' }]);
    const notMember = await rest('DELETE', `/groups/${id}/members/${bo}`);
    expect([notMember.status, notMember.error?.code]).toEqual([404, 'PRINCIPAL_NOT_FOUND']);

    expect((await rest('DELETE', `/groups/${id}`)).data).toEqual({ group_id: id, removed: true });
    expect((await rest('GET', `/groups/${id}`)).error?.code).toBe('GROUP_NOT_FOUND');
    expect(await groupEvents(id)).toEqual(['create_group', 'add_group_members', 'update_group', 'remove_group_member', 'delete_group']);
  });

  it('refuses a second group of the same name (case aside), a blank name, and a change by someone who is not an Admin', async () => {
    await rest('POST', '/groups', { name: 'Finance' });
    const twice = await rest('POST', '/groups', { name: 'FINANCE' });
    expect([twice.status, twice.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(twice.error?.message).toMatch(/already has a group named "FINANCE"/);
    expect((await rest('POST', '/groups', { name: '   ' })).error?.code).toBe('VALIDATION_ERROR');
    const byEditor = await rest('POST', '/groups', { name: 'Mine' }, adaToken);
    expect([byEditor.status, byEditor.error?.code, byEditor.error?.details?.required_permission]).toEqual([403, 'FORBIDDEN', 'admin']);
  });

  it('finds no group or person of another account, and no agent to add', async () => {
    const other = await h.services.auth.createAccount('Elsewhere');
    const stranger = await h.services.auth.createToken({ accountId: other, permission: 'admin', capabilities: ['waymark.read', 'waymark.author'], kind: 'person', name: 'Stranger', email: 'stranger@example.com' });
    const theirs = await rest<GroupWithMembers>('POST', '/groups', { name: 'Theirs' }, stranger.token);
    for (const [method, path, body] of [
      ['GET', `/groups/${theirs.data.group_id}`],
      ['POST', `/groups/${theirs.data.group_id}`, { name: 'Taken over' }],
      ['POST', `/groups/${theirs.data.group_id}/members`, { people: [ada] }],
      ['DELETE', `/groups/${theirs.data.group_id}`],
    ] as const) {
      const answer = await rest(method, path, body);
      expect([answer.status, answer.error?.code], path).toEqual([404, 'GROUP_NOT_FOUND']);
    }
    expect((await rest<GroupList>('GET', '/groups')).data.groups.map((g) => g.name)).not.toContain('Theirs');
    const ours = await rest<GroupWithMembers>('POST', '/groups', { name: 'Ours' });
    for (const person of ['stranger@example.com', stranger.principalId, h.owner.principalId]) {
      const answer = await rest(`POST`, `/groups/${ours.data.group_id}/members`, { people: [person] });
      expect([answer.status, answer.error?.code], person).toEqual([404, 'PRINCIPAL_NOT_FOUND']);
    }
  });

  it('an Admin sets, changes and clears a person\'s email; a bad or taken one is refused; only an Admin reads them', async () => {
    const set = await rest<PersonView>('POST', `/people/${bo}`, { email: ' Bo@Example.org ' });
    expect(set.data).toMatchObject({ principal_id: bo, name: 'Bo', email: 'bo@example.org' });
    const taken = await rest('POST', `/people/${bo}`, { email: 'ADA@example.com' });
    expect([taken.status, taken.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(taken.error?.message).toMatch(/ada@example.com is already the email of Ada/);
    expect((await rest('POST', `/people/${bo}`, { email: 'not an email' })).error?.code).toBe('VALIDATION_ERROR');
    expect((await rest('POST', `/people/${h.owner.principalId}`, { email: 'agent@example.com' })).error?.code).toBe('VALIDATION_ERROR');
    expect((await rest('POST', `/people/${bo}`, { email: 'x@example.com' }, adaToken)).error?.code).toBe('FORBIDDEN');

    const asAdmin = await rest<Directory>('GET', '/people');
    expect(asAdmin.data.people.filter((p) => p.kind === 'person').map((p) => [p.name, p.email])).toEqual([
      ['Ada', 'ada@example.com'],
      ['Bo', 'bo@example.org'],
    ]);
    const asAda = await rest<Directory>('GET', '/people', undefined, adaToken);
    expect(asAda.data.people.filter((p) => p.kind === 'person').map((p) => [p.name, p.email])).toEqual([
      ['Ada', 'ada@example.com'],
      ['Bo', null],
    ]);
    expect((await rest<PersonView>('POST', `/people/${bo}`, { email: null })).data.email).toBeNull();
  });

  it('a bit names a person by email or a group by name, stored by id and named back; bad forms and durations are refused', async () => {
    const group = await rest<GroupWithMembers>('POST', '/groups', { name: 'Reviewers' });
    const added = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Review', bit_body: 'Check it.', assignee: 'group:reviewers', expected_duration: 'p2d' });
    const read = await h.owner.client.ok<Record<string, unknown>>('get_bit', { bit_id: added.bit_id });
    expect([read.assignee, read.assignee_name, read.expected_duration]).toEqual([`group:${group.data.group_id}`, 'Reviewers', 'P2D']);

    await h.owner.client.ok('update_bit', { bit_id: added.bit_id, assignee: 'person:ADA@example.com', expected_duration: 'PT4H' });
    const person = await h.owner.client.ok<Record<string, unknown>>('get_bit', { bit_id: added.bit_id });
    expect([person.assignee, person.assignee_name, person.expected_duration]).toEqual([`person:${ada}`, 'Ada', 'PT4H']);

    const refusals: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ expected_duration: 'P1M' }, 'VALIDATION_ERROR', /write days, e\.g\. P2D/],
      [{ expected_duration: 'two days' }, 'VALIDATION_ERROR', /ISO 8601/],
      [{ assignee: 'someone' }, 'VALIDATION_ERROR', /"starter", "person:<id or email>"/],
      [{ assignee: 'person:nobody@example.com' }, 'PRINCIPAL_NOT_FOUND', /No person of your account/],
      [{ assignee: `person:${h.owner.principalId}` }, 'PRINCIPAL_NOT_FOUND', /not an agent/],
      [{ assignee: 'group:Nobody' }, 'GROUP_NOT_FOUND', /No group "Nobody"/],
    ];
    for (const [fields, code, message] of refusals) {
      const error = await h.owner.client.fail('update_bit', { bit_id: added.bit_id, ...fields });
      expect([error.code, error.message], JSON.stringify(fields)).toEqual([code, expect.stringMatching(message)]);
    }

    await h.owner.client.ok('update_bit', { bit_id: added.bit_id, assignee: 'context:manager_email' });
    expect((await h.owner.client.ok<Record<string, unknown>>('get_bit', { bit_id: added.bit_id })).assignee).toBe('context:manager_email');
    await h.owner.client.ok('update_bit', { bit_id: added.bit_id, assignee: 'group:Reviewers' });

    // The group is in use: its removal is refused, naming the bit, until the bit's assignee is cleared.
    const refused = await rest('DELETE', `/groups/${group.data.group_id}`);
    expect([refused.status, refused.error?.code, refused.error?.details?.bit_ids]).toEqual([422, 'VALIDATION_ERROR', [added.bit_id]]);
    expect(refused.error?.message).toMatch(/"Review".*update_bit/);
    await h.owner.client.ok('update_bit', { bit_id: added.bit_id, assignee: null, expected_duration: null });
    const cleared = await h.owner.client.ok<Record<string, unknown>>('get_bit', { bit_id: added.bit_id });
    expect([cleared.assignee, cleared.assignee_name, cleared.expected_duration]).toEqual([null, null, null]);
    expect((await rest('DELETE', `/groups/${group.data.group_id}`)).status).toBe(200);
  });
});
