/**
 * Isolation probe (issue 7, item 3), generated from the operation declarations: for every operation a token may
 * call (the registry's, but the session-only ones), through its own door (an MCP tool over MCP, the web app's and
 * the REST-only operations at their /api/v1 route with a Bearer token), its declared `access` and the id-bearing
 * fields of its input schema, four callers try it:
 *
 * - a principal of another account, and a principal limited to another scope of the same account, each
 *   with every capability and Admin, naming a record of the owner's world in one id field while every other
 *   id field names the caller's own records: the answer must be exactly the answer for an id that does not
 *   exist (CONTRACT.md: another account's or an invisible scope's id behaves as not existing), and where the
 *   contract names a not-found code, that code;
 * - a token without the tool's capability: FORBIDDEN with details.required_capability;
 * - a token one permission level below the tool's: FORBIDDEN with details.required_permission.
 *
 * After every call the whole store (every row of every table) is what it was before: nothing written.
 * A control call with the caller's own records proves each base input gets past validation to the lookups.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityName, type CapabilityKind } from '../src/config.js';
import type { ErrorCode } from '../src/errors.js';
import { REGISTRY } from '../src/operations/registry.js';
import type { Operation, RestRoute } from '../src/operations/operation.js';
import { PERMISSIONS } from '../src/services/actor.js';
import { ENGINES } from './engines.js';
import { startHarness, type Envelope, type Harness, type Principal } from './harness.js';
import { startWebServer, type WebServer } from './web-client.js';
import { baseInput, buildWorld, dumpStore, fieldBase, idPaths, pathId, withPath, type World } from './probe-world.js';

const CAPABILITIES: CapabilityKind[] = ['author', 'read', 'run'];

/** The not-found answer the contract names for another account's (or an invisible scope's) id in a field. */
const DOCUMENTED: Record<string, ErrorCode | 'filter'> = {
  bit_id: 'BIT_NOT_FOUND',
  source_bit_id: 'BIT_NOT_FOUND',
  target_bit_id: 'BIT_NOT_FOUND',
  start_bit_id: 'FLOW_START_BIT_INVALID',
  connection_id: 'CONNECTION_NOT_FOUND',
  flow_id: 'FLOW_NOT_FOUND',
  reference_id: 'REFERENCE_NOT_FOUND',
  trail_id: 'TRAIL_NOT_FOUND',
  scope_id: 'SCOPE_NOT_FOUND',
  element_id: 'ELEMENT_NOT_FOUND',
  id: 'ELEMENT_NOT_FOUND',
  parent_element_id: 'ELEMENT_NOT_FOUND',
  webhook_id: 'WEBHOOK_NOT_FOUND',
  // A step of a trail the caller can see (comment_on_step, the comments list): another trail's step is not one of its steps.
  step_id: 'STEP_NOT_FOUND',
  // Another person's notification is not the caller's: as one that does not exist.
  notification_ids: 'NOTIFICATION_NOT_FOUND',
  group_id: 'GROUP_NOT_FOUND',
  // A filter over trails and changes: a principal one cannot see takes part in none of one's trails, and made
  // none of the changes one can see.
  principal_id: 'filter',
  // The people operation names only principals the caller may know of; any other is left out, as a missing one is.
  principal_ids: 'filter',
  // The Trails page's filter (search_trails, export_trails): a principal one cannot see started none of one's trails.
  started_by_id: 'filter',
  // list_history's filter: a resource one cannot see has no change one can see.
  resource_id: 'filter',
};
/** Where a tool answers otherwise, and why. */
const DOCUMENTED_BY_TOOL: Record<string, ErrorCode | 'filter'> = {
  // advance_trail names a connection of the current step; anything else is not one to follow (422).
  'advance_trail.connection_id': 'VALIDATION_ERROR',
  // Another trail's step is not this trail's current step: refused the same as an id that does not exist.
  'advance_trail.expected_step_id': 'VALIDATION_ERROR',
  // The step form's Continue takes advance_trail's input and answers as it does.
  'advance_step.connection_id': 'VALIDATION_ERROR',
  'advance_step.expected_step_id': 'VALIDATION_ERROR',
  // The step form's Save names its step as Continue does (a stale step is told, nothing recorded).
  'save_step.expected_step_id': 'VALIDATION_ERROR',
  // remove_node_ids lists nodes of the bit being written; an id that is not one of them removes nothing, and
  // the body that drops the caller's own node is refused for that node.
  'update_bit.remove_node_ids': 'BIT_CONTENT_LOSS',
  // The revision tools name a resource by its type and id: a bit here, whose own not-found answers.
  'get_revision.resource_id': 'BIT_NOT_FOUND',
  'diff_revisions.resource_id': 'BIT_NOT_FOUND',
  'restore_revision.resource_id': 'BIT_NOT_FOUND',
  // A delivery is found within its webhook: another's delivery id is not one of this webhook's.
  'redeliver_webhook.delivery_id': 'DELIVERY_NOT_FOUND',
  // A person one cannot see is no member of one's group, and no person one may name.
  'remove_group_member.principal_id': 'PRINCIPAL_NOT_FOUND',
  'update_person.principal_id': 'PRINCIPAL_NOT_FOUND',
  'end_person_access.principal_id': 'PRINCIPAL_NOT_FOUND',
};

/** A world of placeholder ids: what the base inputs look like, at collection time. */
const PLACEHOLDER_WORLD: World = {
  principalId: 'p', scopeId: 's', bitId: 'b', targetBitId: 't', elementId: 'e', checkListId: 'cl', itemId: 'i', connectionId: 'c', flowId: 'f', referenceId: 'r', bitReferenceId: 'l', trailId: 'tr', stepId: 'st', webhookId: 'w', deliveryId: 'd', notificationId: 'n', groupId: 'g', memberId: 'm',
};

/** The tool's capability that a token must lack, and the capabilities such a token has. */
function withoutCapability(tool: Operation): CapabilityKind[] {
  const needed = tool.access.capability;
  if (needed === 'any') return CAPABILITIES;
  // `read` is also satisfied by `author` (CONTRACT.md), so a read tool's token lacks both.
  return CAPABILITIES.filter((c) => c !== needed && !(needed === 'read' && c === 'author'));
}

/** An answer with the probed ids and the per-failure errorId taken out, to compare two answers. */
function normalise(envelope: Envelope, ids: string[]): string {
  const { error, ...rest } = envelope;
  const body = error ? { ...rest, error: { ...error, errorId: '<errorId>' } } : rest;
  let text = JSON.stringify(body);
  // Longest first: a notification's id is a number, which the other id (a UUID) may hold as a part.
  for (const id of [...ids].sort((a, b) => b.length - a.length)) text = text.split(id).join('<ID>');
  return text;
}

describe.each(ENGINES)('isolation probe on %s', (engine) => {
  let h: Harness;
  let ownerWorld: World;
  let otherAccount: Principal;
  let otherWorld: World;
  let scoped: Principal;
  let scopedWorld: World;
  let web: WebServer;
  /** Session-only operations take no token at all (a Bearer token is refused them whole: dispatch.test.ts). */
  const tools = REGISTRY.operations.filter((operation) => !operation.sessionOnly);

  beforeAll(async () => {
    h = await startHarness(engine);
    const hiddenScope = await h.services.auth.createScope(h.accountId, 'hidden');
    const ownScope = await h.services.auth.createScope(h.accountId, 'own');
    ownerWorld = await buildWorld(h.owner.client, h.owner.principalId, hiddenScope, { services: h.services, token: h.owner.token });
    const otherAccountId = await h.services.auth.createAccount('other');
    otherAccount = await h.principal({ accountId: otherAccountId });
    otherWorld = await buildWorld(otherAccount.client, otherAccount.principalId, null, { services: h.services, token: otherAccount.token });
    scoped = await h.principal({ scopeId: ownScope });
    scopedWorld = await buildWorld(scoped.client, scoped.principalId, ownScope, { services: h.services, token: scoped.token });
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  /** A call through the operation's own door: MCP for a tool, else its REST route with the caller's Bearer token. */
  async function call(caller: Principal, tool: Operation, args: Record<string, unknown>): Promise<Envelope> {
    if (tool.mcp !== false) return caller.client.call(tool.name, args);
    const route = tool.rest as RestRoute;
    const rest = { ...args };
    const path = route.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
      const value = encodeURIComponent(String(rest[name]));
      delete rest[name];
      return value;
    });
    const query = new URLSearchParams();
    if (route.method === 'get') for (const [name, value] of Object.entries(rest)) for (const v of [value].flat()) query.set(name, String(v));
    const res = await fetch(`${web.origin}/api/v1${path}${query.size > 0 ? `?${query}` : ''}`, {
      method: route.method.toUpperCase(),
      headers: { authorization: `Bearer ${caller.token}`, ...(route.method === 'post' ? { 'content-type': 'application/json' } : {}) },
      ...(route.method === 'post' ? { body: JSON.stringify(rest) } : {}),
    });
    // A download (export_trails) answers its file; its errors are the envelope.
    if (route.file && res.ok) return { success: true, data: { file: await res.text() } };
    return (await res.json()) as Envelope;
  }

  /** Calls and proves that the call wrote nothing. */
  async function callWritingNothing(caller: Principal, tool: Operation, args: Record<string, unknown>): Promise<Envelope> {
    const before = await dumpStore(h.store.store);
    const envelope = await call(caller, tool, args);
    const after = await dumpStore(h.store.store);
    expect(after === before, `${tool.name} ${JSON.stringify(args).slice(0, 300)} wrote to the store: ${JSON.stringify(envelope).slice(0, 300)}`).toBe(true);
    return envelope;
  }

  const callers: Array<{ row: string; caller: () => Principal; world: () => World }> = [
    { row: 'principal of another account', caller: () => otherAccount, world: () => otherWorld },
    { row: 'principal limited to another scope', caller: () => scoped, world: () => scopedWorld },
  ];

  for (const tool of tools) {
    const paths = idPaths(tool);
    for (const { row, caller, world } of callers) {
      if (paths.length === 0) {
        it.skip(`${tool.name} · ${row}: not applicable, the input has no id-bearing field`, () => {});
        continue;
      }
      for (const path of paths) {
        const field = String(path[path.length - 1]);
        const key = `${tool.name}.${field}`;
        if (withPath(fieldBase(tool, path, PLACEHOLDER_WORLD), path, 'x') === null) {
          it.skip(`${tool.name} · ${row} · ${path.join('.')}: not probed, the base input has no ${path.slice(0, -1).join('.')} to hold it`, () => {});
          continue;
        }
        it(`${tool.name} · ${row} · ${path.join('.')}: answers as for an id that does not exist, writes nothing`, async () => {
          const foreign = pathId(ownerWorld, tool.name, path);
          expect(foreign, `${key}: the owner's world has no record for this field`).toBeTruthy();
          const base = fieldBase(tool, path, world());
          const missing = randomUUID();
          const probe = withPath(base, path, foreign as string);
          const control = withPath(base, path, missing);
          expect(probe && control, `${key}: the base input has no place for ${path.join('.')}`).toBeTruthy();
          const answer = await callWritingNothing(caller(), tool, probe as Record<string, unknown>);
          const nonexistent = await callWritingNothing(caller(), tool, control as Record<string, unknown>);
          expect(normalise(answer, [foreign as string, missing])).toBe(normalise(nonexistent, [foreign as string, missing]));
          const documented = DOCUMENTED_BY_TOOL[key] ?? DOCUMENTED[field];
          if (documented === 'filter') {
            expect(answer.success, JSON.stringify(answer.error)).toBe(true);
          } else if (documented) {
            expect(answer.error?.code, `${key}: ${JSON.stringify(answer).slice(0, 400)}`).toBe(documented);
          } else {
            // A field this table does not know yet: at least a not-found (404), never FORBIDDEN or success.
            expect(answer.error?.status, `${key}: ${JSON.stringify(answer).slice(0, 400)}`).toBe(404);
          }
        });
      }
    }

    const capabilityRow = `${tool.name} · token without the capability`;
    if (tool.access.capability === 'any') {
      it.skip(`${capabilityRow}: not applicable, the tool takes any valid token`, () => {});
    } else {
      it(`${capabilityRow} (${capabilityName(tool.access.capability)}): FORBIDDEN with required_capability, writes nothing`, async () => {
        const caller = await h.principal({ permission: 'admin', capabilities: withoutCapability(tool) });
        const answer = await callWritingNothing(caller, tool, baseInput(tool, ownerWorld));
        expect(answer.error?.code, JSON.stringify(answer).slice(0, 300)).toBe('FORBIDDEN');
        expect(answer.error?.status).toBe(403);
        expect(answer.error?.details?.required_capability).toBe(capabilityName(tool.access.capability === 'any' ? 'read' : tool.access.capability));
      });
    }

    const lower = PERMISSIONS.slice(0, PERMISSIONS.indexOf(tool.access.permission));
    if (lower.length === 0) {
      it.skip(`${tool.name} · token of a lower permission level: not applicable, the tool needs only ${tool.access.permission}`, () => {});
    }
    for (const permission of lower) {
      it(`${tool.name} · token of permission ${permission} (needs ${tool.access.permission}): FORBIDDEN with required_permission, writes nothing`, async () => {
        const caller = await h.principal({ permission, capabilities: CAPABILITIES });
        const answer = await callWritingNothing(caller, tool, baseInput(tool, ownerWorld));
        expect(answer.error?.code, JSON.stringify(answer).slice(0, 300)).toBe('FORBIDDEN');
        expect(answer.error?.status).toBe(403);
        expect(answer.error?.details?.required_permission).toBe(tool.access.permission);
      });
    }
  }

  // A list without ids is probed by what it names: list_scopes names no scope of another account to anyone, and to a
  // scope-limited principal no scope but its own (CONTRACT.md, "Accounts, scopes").
  it('list_scopes · principal of another account, principal limited to another scope: never names a scope it may not see', async () => {
    const list = REGISTRY.operations.find((o) => o.name === 'list_scopes') as Operation;
    const named = async (caller: Principal) => ((await callWritingNothing(caller, list, {})).data as { scopes: Array<{ scope_id: string }> }).scopes.map((s) => s.scope_id);
    const ownerScopes = await h.store.store.db.selectFrom('scopes').select('id').where('account_id', '=', h.accountId).execute();
    expect(ownerScopes.length).toBeGreaterThan(1);
    const hidden = ownerScopes.map((s) => s.id).filter((id) => id !== scopedWorld.scopeId);
    expect((await named(otherAccount)).filter((id) => ownerScopes.some((s) => s.id === id))).toEqual([]);
    expect(await named(scoped)).toEqual([scopedWorld.scopeId]);
    expect(await named(h.owner)).toEqual(expect.arrayContaining([...hidden, scopedWorld.scopeId]));
  });

  // Controls, after the probes: with its own records (a fresh world each), the same base input is not refused
  // for its form, its rights or its ids, so every probe above reached the record lookups.
  for (const tool of tools) {
    it(`${tool.name} · control: the base input with the caller's own ids gets past validation and lookups`, async () => {
      const world = await buildWorld(otherAccount.client, otherAccount.principalId, null, { services: h.services, token: otherAccount.token });
      const answer = await call(otherAccount, tool, baseInput(tool, world));
      if (!answer.success) {
        const code = answer.error?.code ?? '';
        expect(['VALIDATION_ERROR', 'FORBIDDEN', 'INTERNAL_ERROR'], JSON.stringify(answer.error)).not.toContain(code);
        expect(code.endsWith('_NOT_FOUND'), JSON.stringify(answer.error)).toBe(false);
      }
    });
  }
});
