/**
 * One event per accepted change (issue 26): every writing operation the registry declares (flags.W) is called once
 * through its own door (MCP tools through the SDK client, the web app's and the REST-only ones over HTTP) and must
 * append exactly one event, naming the operation, the caller and the resource, in the caller's account. The list
 * is REGISTRY's: a writing operation added without a scenario here, or whose write appends no event, fails.
 * A refused write, a read and a write that changes nothing append none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { addTestBit, connectTestBits } from '../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../test/harness.js';
import { makeReference } from '../../test/reference-fixtures.js';
import { textArea } from '../../test/trail-fixtures.js';
import { signedIn, startWebServer, type Browser, type WebServer } from '../../test/web-client.js';
import type { EventTable } from '../store/schema.js';
import { notify } from '../services/notifications/record.js';
import type { Operation } from './operation.js';
import { REGISTRY } from './registry.js';

const WRITES = REGISTRY.operations.filter((o) => o.flags.W);

const answer = (element_id: string, inner: unknown) => ({ element_id, element_type: 'TextArea', value: { value: inner } });

interface World {
  h: Harness;
  web: WebServer;
  /** A person (Edit, every capability) with the app open. */
  person: Principal;
  browser: Browser;
  trailFlowId: string;
  notesId: string;
}

/** What one call of an operation takes: its arguments, who calls (the owner's token unless said), the resource it changes. */
interface Call {
  args: Record<string, unknown>;
  /** The person calls, from the app (the web app's operations; the session-only ones always). */
  byPerson?: true;
  /** A browser of its own (sign_out ends its session). */
  browser?: Browser;
  resource: { type: string; id: string };
}

type Scenario = (w: World) => Promise<Call>;

const newBit = async (w: World) => (await addTestBit(w.h)).bit_id;
const newFlow = async (w: World) => (await w.h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'F', start_bit_id: await newBit(w) })).flow_id;
const newTrail = async (w: World) => (await w.h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id: w.trailFlowId })).trail_id;
const linked = async (w: World) => {
  const bit_id = await newBit(w);
  const reference_id = await makeReference(w.h.owner.client);
  await w.h.owner.client.ok('link_reference', { bit_id, reference_id });
  return { bit_id, reference_id };
};
const newWebhook = async (w: World) => {
  const owner = await w.h.services.auth.authenticate(w.h.owner.token);
  if (!owner) throw new Error('the owner token does not authenticate');
  return (await w.h.services.webhooks.create(owner, { url: 'https://example.com/hook', event_types: ['*'] })).webhook_id;
};
const newGroup = async (w: World, members: string[] = []) => {
  const owner = await w.h.services.auth.authenticate(w.h.owner.token);
  if (!owner) throw new Error('the owner token does not authenticate');
  const group = await w.h.services.groups.create(owner, { name: `Group ${Math.random().toString(36).slice(2)}` });
  if (members.length > 0) await w.h.services.groups.addMembers(owner, { group_id: group.group_id, people: members });
  return group.group_id;
};
const group = (id: string) => ({ type: 'group', id });
const bit = (id: string) => ({ type: 'bit', id });
const trail = (id: string) => ({ type: 'trail', id });

/** One scenario per writing operation, by name. */
const SCENARIOS: Record<string, Scenario> = {
  add_bit: async () => ({ args: { bit_title: 'New', bit_body: 'A step.' }, resource: { type: 'bit', id: '*' } }),
  update_bit: async (w) => {
    const id = await newBit(w);
    return { args: { bit_id: id, bit_title: 'Renamed' }, resource: bit(id) };
  },
  archive_bit: async (w) => {
    const id = await newBit(w);
    return { args: { bit_id: id }, resource: bit(id) };
  },
  restore_bit: async (w) => {
    const id = await newBit(w);
    await w.h.owner.client.ok('archive_bit', { bit_id: id });
    return { args: { bit_id: id }, resource: bit(id) };
  },
  create_webhook: async () => ({ args: { url: 'https://example.com/hook', event_types: ['*'] }, resource: { type: 'webhook', id: '*' } }),
  update_webhook: async (w) => {
    const id = await newWebhook(w);
    return { args: { webhook_id: id, event_types: ['bit.changed'] }, resource: { type: 'webhook', id } };
  },
  delete_webhook: async (w) => {
    const id = await newWebhook(w);
    return { args: { webhook_id: id }, resource: { type: 'webhook', id } };
  },
  rotate_webhook_secret: async (w) => {
    const id = await newWebhook(w);
    return { args: { webhook_id: id }, resource: { type: 'webhook', id } };
  },
  restore_revision: async (w) => {
    const id = await newBit(w);
    await w.h.owner.client.ok('update_bit', { bit_id: id, bit_title: 'Renamed' });
    return { args: { resource_type: 'bit', resource_id: id, revision: 1 }, resource: bit(id) };
  },
  connect_bits: async (w) => {
    const source = await newBit(w);
    return { args: { source_bit_id: source, target_bit_id: await newBit(w) }, resource: bit(source) };
  },
  remove_connection: async (w) => {
    const source = await newBit(w);
    const connection_id = await connectTestBits(w.h, source, await newBit(w));
    return { args: { connection_id }, resource: bit(source) };
  },
  create_flow: async (w) => ({ args: { flow_title: 'Flow', start_bit_id: await newBit(w) }, resource: { type: 'flow', id: '*' } }),
  update_flow: async (w) => {
    const id = await newFlow(w);
    return { args: { flow_id: id, flow_title: 'Renamed' }, resource: { type: 'flow', id } };
  },
  review_flow: async (w) => {
    const id = await newFlow(w);
    return { args: { flow_id: id, review_status: 'approved' }, resource: { type: 'flow', id } };
  },
  start_trail: async (w) => ({ args: { flow_id: w.trailFlowId }, resource: { type: 'trail', id: '*' } }),
  submit_step_data: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, data: [answer(w.notesId, 'noted')] }, resource: trail(id) };
  },
  advance_trail: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id }, resource: trail(id) };
  },
  transfer_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, reason: 'a person decides' }, resource: trail(id) };
  },
  cancel_trail: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, reason: 'not needed' }, resource: trail(id) };
  },
  comment_on_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, text: 'Who signs this off?' }, resource: trail(id) };
  },
  save_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, data: [answer(w.notesId, 'saved')] }, byPerson: true, resource: trail(id) };
  },
  advance_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id }, byPerson: true, resource: trail(id) };
  },
  claim_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id }, byPerson: true, resource: trail(id) };
  },
  release_step: async (w) => {
    const id = await newTrail(w);
    await w.browser.ok(w.browser.post(`/trails/${id}/step/claim`, {}));
    return { args: { trail_id: id }, byPerson: true, resource: trail(id) };
  },
  assign_step: async (w) => {
    const id = await newTrail(w);
    return { args: { trail_id: id, to: `person:${w.person.principalId}` }, resource: trail(id) };
  },
  create_reference: async () => ({ args: { reference_title: 'R', reference_content: [{ type: 'p', children: [{ text: 'Text.' }] }] }, resource: { type: 'reference', id: '*' } }),
  update_reference: async (w) => {
    const id = await makeReference(w.h.owner.client);
    return { args: { reference_id: id, reference_title: 'Renamed' }, resource: { type: 'reference', id } };
  },
  link_reference: async (w) => {
    const bit_id = await newBit(w);
    return { args: { bit_id, reference_id: await makeReference(w.h.owner.client) }, resource: bit(bit_id) };
  },
  update_bit_reference_link: async (w) => {
    const ids = await linked(w);
    return { args: { ...ids, display_label: 'See this' }, resource: bit(ids.bit_id) };
  },
  unlink_reference: async (w) => {
    const ids = await linked(w);
    return { args: ids, resource: bit(ids.bit_id) };
  },
  sign_out: async (w) => {
    const browser = await signedIn(w.h.services, w.web.origin, w.person.principalId);
    const session = await w.h.store.store.db.selectFrom('signin_sessions').select('id').where('principal_id', '=', w.person.principalId).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    return { args: {}, byPerson: true, browser, resource: { type: 'session', id: session.id } };
  },
  revoke_grant: async (w) => {
    const id = `grant-${Math.random().toString(36).slice(2)}`;
    await w.h.services.oauth.adapter('Grant').upsert(id, { accountId: w.person.principalId, clientId: 'some-client', iat: Math.floor(Date.now() / 1000) }, 3600);
    return { args: { grant_id: id }, resource: { type: 'grant', id } };
  },
  // A folder with one change (a new bit) is one write, as a tool call is: an import that writes several records
  // appends one event for each (src/cli/folder.test.ts counts them).
  import_folder: async () => ({
    args: { files: [{ path: 'waymark.json', content: '{"format":"waymark-folder","version":1,"contents":"all"}' }, { path: 'bits/imported.md', content: '---\ntitle: Imported\n---\nA step.\n' }] },
    resource: { type: 'bit', id: '*' },
  }),
  // A person's choice of what comes by mail changes what the server does for them from now on (notifications.service.ts).
  set_notification_settings: async (w) => ({ args: { email_kinds: ['mentioned'] }, byPerson: true, resource: { type: 'principal', id: w.person.principalId } }),
  create_group: async () => ({ args: { name: 'Onboarding' }, resource: { type: 'group', id: '*' } }),
  update_group: async (w) => {
    const id = await newGroup(w);
    return { args: { group_id: id, description: 'New starters' }, resource: group(id) };
  },
  delete_group: async (w) => {
    const id = await newGroup(w);
    return { args: { group_id: id }, resource: group(id) };
  },
  add_group_members: async (w) => {
    const id = await newGroup(w);
    return { args: { group_id: id, people: [w.person.principalId] }, resource: group(id) };
  },
  remove_group_member: async (w) => {
    const id = await newGroup(w, [w.person.principalId]);
    return { args: { group_id: id, principal_id: w.person.principalId }, resource: group(id) };
  },
  invite_person: async () => ({ args: { name: 'Ivy Invited', email: `i${Math.random().toString(36).slice(2)}@example.com`, permission: 'view', max_capabilities: ['waymark.read'] }, resource: { type: 'principal', id: '*' } }),
  end_person_access: async (w) => {
    const issued = await w.h.services.auth.createToken({ accountId: w.h.accountId, permission: 'view', capabilities: ['waymark.read'], kind: 'person', name: 'Ended Person' });
    return { args: { principal_id: issued.principalId }, resource: { type: 'principal', id: issued.principalId } };
  },
  create_scope: async () => ({ args: { name: `Desk ${Math.random().toString(36).slice(2)}` }, resource: { type: 'scope', id: '*' } }),
  update_person: async (w) => ({ args: { principal_id: w.person.principalId, email: `p${Math.random().toString(36).slice(2)}@example.com` }, resource: { type: 'principal', id: w.person.principalId } }),
  revoke_own_token: async (w) => {
    await w.h.services.auth.createToken({ accountId: w.h.accountId, principalId: w.person.principalId, permission: 'edit', capabilities: ['waymark.read'] });
    const [token] = await w.h.services.auth.listOwnTokens({ ...(await w.h.services.auth.authenticate(w.person.token))! });
    return { args: { token_id: token.token_id }, resource: { type: 'token', id: token.token_id } };
  },
};

/**
 * Writes of a person's own reading state, not of the account's content: they append no event, and say why where
 * they are made (notifications.service.ts markRead). Each is still called, and must append nothing.
 */
const OWN_STATE: Record<string, Scenario> = {
  mark_notifications_read: async (w) => {
    await w.h.store.store.transaction((tx) =>
      notify(tx, w.h.accountId, { principalIds: [w.person.principalId] }, { kind: 'assigned', trailId: null, stepId: null, actorId: null, summary: { step_title: 'Check the contract' } }),
    );
    return { args: { all: true }, byPerson: true, resource: { type: 'principal', id: w.person.principalId } };
  },
};

/** Calls the operation at its own door: an MCP tool through the owner's client, a REST-only one over HTTP. */
async function callAtDoor(w: World, operation: Operation, call: Call): Promise<{ principalId: string; data: Record<string, unknown> }> {
  if (operation.mcp !== false) return { principalId: w.h.owner.principalId, data: await w.h.owner.client.ok(operation.name, call.args) };
  const route = operation.rest;
  if (!route) throw new Error(`${operation.name} has neither an MCP nor a REST door`);
  const rest = { ...call.args };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  const asPerson = operation.sessionOnly === true || call.byPerson === true;
  const init: RequestInit = { method: route.method.toUpperCase(), ...(route.method === 'post' ? { body: JSON.stringify(rest), headers: { 'content-type': 'application/json' } } : {}) };
  let res: Response;
  if (asPerson) res = await (call.browser ?? w.browser).fetch(`/api/v1${path}`, init);
  else res = await fetch(`${w.web.origin}/api/v1${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${w.h.owner.token}` } });
  const body = (await res.json()) as { success: boolean; data: Record<string, unknown>; error?: unknown };
  if (!body.success) throw new Error(`${operation.name} failed: ${JSON.stringify(body.error)}`);
  return { principalId: asPerson ? w.person.principalId : w.h.owner.principalId, data: body.data };
}

describe.each(ENGINES)('one event per accepted change, on %s', (engine) => {
  let w: World;
  const events = (accountId = w.h.accountId): Promise<EventTable[]> => w.h.store.store.db.selectFrom('events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();

  beforeAll(async () => {
    const h = await startHarness(engine);
    const web = await startWebServer(h.services);
    const person = await h.principal({ kind: 'person', permission: 'edit' });
    const start = await addTestBit(h, { title: 'Notes', blocks: [textArea('notes')] });
    await connectTestBits(h, start.bit_id, (await addTestBit(h, { title: 'Next' })).bit_id);
    const trailFlowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Trail flow', start_bit_id: start.bit_id })).flow_id;
    w = { h, web, person, browser: await signedIn(h.services, web.origin, person.principalId), trailFlowId, notesId: start.ids.notes };
  });
  afterAll(async () => {
    await w.web.close();
    await w.h.close();
  });

  it('has a scenario for every writing operation the registry declares, and for nothing else', () => {
    expect([...Object.keys(SCENARIOS), ...Object.keys(OWN_STATE)].sort()).toEqual(WRITES.map((o) => o.name).sort());
  });

  it.each(WRITES.filter((o) => OWN_STATE[o.name]).map((o) => [o.name, o] as const))('%s changes only the person\'s own state and appends no event', async (name, operation) => {
    const call = await OWN_STATE[name](w);
    const before = await events();
    const { data } = await callAtDoor(w, operation, call);
    expect(data).toMatchObject({ marked: 1, unread_count: 0 });
    expect(await events()).toEqual(before);
  });

  it.each(WRITES.filter((o) => !OWN_STATE[o.name]).map((o) => [o.name, o] as const))('%s appends exactly one event, in the write', async (name, operation) => {
    const scenario = SCENARIOS[name];
    if (!scenario) throw new Error(`no scenario for the writing operation ${name}: add one that calls it, and make its service record its change`);
    const call = await scenario(w);
    const before = await events();
    const { principalId } = await callAtDoor(w, operation, call);
    const after = await events();
    const added = after.slice(before.length);
    expect(added.map((e) => e.operation), `${name} appended ${added.length} events`).toEqual([name]);
    const [event] = added;
    expect(event).toMatchObject({ account_id: w.h.accountId, principal_id: principalId, resource_type: call.resource.type, seq: before.length + 1, prev_hash: before.at(-1)?.hash ?? null });
    if (call.resource.id !== '*') expect(event.resource_id).toBe(call.resource.id);
    expect(event.revision).toBeGreaterThanOrEqual(1);
    expect(event.principal_kind).toBe(principalId === w.person.principalId ? 'person' : 'agent');
  });

  it('names the API key an MCP call came with', async () => {
    const ownerKey = (await w.h.services.auth.authenticate(w.h.owner.token))?.tokenId;
    await w.h.owner.client.ok('add_bit', { bit_title: 'Keyed', bit_body: 'x' });
    const [last] = (await events()).slice(-1);
    expect(ownerKey).toBeTruthy();
    expect(last).toMatchObject({ operation: 'add_bit', token_id: ownerKey, client_name: null, revision: 1 });
    await w.h.owner.client.ok('update_bit', { bit_id: last.resource_id, bit_title: 'Keyed again' });
    expect((await events()).at(-1)).toMatchObject({ resource_id: last.resource_id, revision: 2, summary: JSON.stringify({ fields: ['bit_title'] }) });
  });

  it('appends nothing for a refused write, a read, or a write that changes nothing', async () => {
    const bitId = await newBit(w);
    await w.h.owner.client.ok('archive_bit', { bit_id: bitId });
    const reader = await w.h.principal({ capabilities: ['read'], permission: 'view' });
    const before = (await events()).length;
    expect((await reader.client.fail('add_bit', { bit_title: 'No', bit_body: 'x' })).code).toBe('FORBIDDEN');
    expect((await w.h.owner.client.fail('update_bit', { bit_id: bitId, bit_title: 'Archived' })).code).toBe('BIT_ARCHIVED');
    expect((await w.h.owner.client.fail('create_flow', { flow_title: 'F', start_bit_id: bitId })).code).toBe('FLOW_START_BIT_INVALID');
    expect((await w.h.owner.client.fail('unlink_reference', { bit_id: bitId, reference_id: '00000000-0000-0000-0000-000000000000' })).code).toBe('REFERENCE_NOT_FOUND');
    await w.h.owner.client.ok('get_bit', { bit_id: bitId });
    await w.h.owner.client.ok('list_bits', {});
    await w.h.owner.client.ok('list_flows', {});
    expect(await w.h.owner.client.ok('archive_bit', { bit_id: bitId })).toMatchObject({ was_already_archived: true });
    expect((await events()).length).toBe(before);
  });
});
