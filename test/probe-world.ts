/**
 * Shared by the isolation probe and the fuzz test (issue 7): a small world of real records made through
 * the tools (a bit with an element, a second bit, a connection, a flow, a reference linked to the bit, a
 * trail), the id-bearing fields of a tool's input found from its zod schema, a minimal valid-looking input
 * derived from that schema, and a dump of every table to prove that a refused call wrote nothing.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Operation } from '../src/operations/operation.js';
import type { Store } from '../src/store/store.js';
import type { Services } from '../src/services/index.js';
import type { ToolClient } from './harness.js';

export interface World {
  principalId: string;
  scopeId: string | null;
  /** The start bit of the flow: a text-area element, one outgoing connection, a reference link. */
  bitId: string;
  /** The connection's target. */
  targetBitId: string;
  elementId: string;
  /** A check-list of the start bit, and its one item. */
  checkListId: string;
  itemId: string;
  connectionId: string;
  flowId: string;
  referenceId: string;
  bitReferenceId: string;
  trailId: string;
  /** The trail's current step (advance_trail's expected_step_id). */
  stepId: string;
  /** A webhook subscription and one logged delivery of it (REST and app only: made through the service). */
  webhookId: string;
  deliveryId: string;
  /** A notification of the world's principal (REST and app only). */
  notificationId: string;
  /** A group of people (REST and app only: made through the service) and its one member, a person of the world's scope. */
  groupId: string;
  memberId: string;
}

/** Who makes what no tool makes: the services, as the principal of `token`. */
export interface WorldAdmin {
  services: Services;
  token: string;
}

/** Builds a world through the tools, in `scopeId` (null = account level), as the client's principal. */
export async function buildWorld(client: ToolClient, principalId: string, scopeId: string | null, admin: WorldAdmin): Promise<World> {
  const scope = scopeId === null ? {} : { scope_id: scopeId };
  const bit = await client.ok<{ bit_id: string; minted_node_ids: Record<string, string> }>('add_bit', {
    bit_title: 'World start',
    bit_body: 'Start here.\n\n[text-area: Notes](waymark-node:notes)\n\n[check-list: Steps](waymark-node:steps)\n- [ ] [One](waymark-node:one)\n',
    elements: [
      { key: 'notes', type: 'text-area' },
      { key: 'steps', type: 'check-list', items: [{ key: 'one' }] },
    ],
    ...scope,
  });
  const target = await client.ok<{ bit_id: string }>('add_bit', { bit_title: 'World target', bit_body: 'The next step.', ...scope });
  const connection = await client.ok<{ connection_id: string }>('connect_bits', { source_bit_id: bit.bit_id, target_bit_id: target.bit_id });
  const flow = await client.ok<{ flow_id: string }>('create_flow', { flow_title: 'World flow', start_bit_id: bit.bit_id, ...scope });
  const reference = await client.ok<{ reference_id: string }>('create_reference', {
    reference_title: 'World reference',
    reference_content: [{ type: 'p', children: [{ text: 'Reference text.' }] }],
    ...scope,
  });
  const link = await client.ok<{ bit_reference_id: string }>('link_reference', { bit_id: bit.bit_id, reference_id: reference.reference_id });
  const trail = await client.ok<{ trail_id: string; current_step: { step_id: string } }>('start_trail', { flow_id: flow.flow_id });
  // A webhook whose address the server refuses to send to: its test event is logged failed without a connection.
  const actor = await admin.services.auth.authenticate(admin.token);
  if (!actor) throw new Error('the world\'s admin token does not authenticate');
  const webhook = await admin.services.webhooks.create(actor, { url: 'https://127.0.0.1:9/hook', event_types: ['*'], scope_id: scopeId });
  const delivery = await admin.services.webhooks.sendTest(actor, { webhook_id: webhook.webhook_id });
  // The world's principal is an agent, whom notify() never tells (record.ts): its row is written as notify writes one.
  const notification = await admin.services.store.db
    .insertInto('notifications')
    .values({ account_id: actor.accountId, principal_id: principalId, kind: 'assigned', trail_id: trail.trail_id, step_id: trail.current_step.step_id, actor_id: null, summary: '{}', created_at: new Date().toISOString(), read_at: null, email_state: 'none', email_next_at: null, email_lease_id: null, email_leased_until: null, email_error: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await admin.services.auth.createToken({ accountId: actor.accountId, scopeId, permission: 'view', capabilities: ['waymark.read'], kind: 'person', name: 'World member' });
  const group = await admin.services.groups.create(actor, { name: `World group ${member.principalId.slice(0, 8)}`, scope_id: scopeId });
  await admin.services.groups.addMembers(actor, { group_id: group.group_id, people: [member.principalId] });
  return {
    principalId,
    scopeId,
    bitId: bit.bit_id,
    targetBitId: target.bit_id,
    elementId: bit.minted_node_ids.notes as string,
    checkListId: bit.minted_node_ids.steps as string,
    itemId: bit.minted_node_ids.one as string,
    connectionId: connection.connection_id,
    flowId: flow.flow_id,
    referenceId: reference.reference_id,
    bitReferenceId: link.bit_reference_id,
    trailId: trail.trail_id,
    stepId: trail.current_step.step_id,
    webhookId: webhook.webhook_id,
    deliveryId: delivery.delivery_id,
    notificationId: String(notification.id),
    groupId: group.group_id,
    memberId: member.principalId,
  };
}

/** A field that carries a record id: named `id`, `ids`, `*_id` or `*_ids`. */
export function isIdField(name: string): boolean {
  return /(^|_)ids?$/.test(name);
}

/**
 * The world's id for an id field, by the field's name (`field`) and the tool (some names mean different
 * records in different tools). Undefined when the world has no record of that kind: the probe then fails
 * and names the field, so a new kind of id gets a fixture instead of going unprobed.
 */
export function worldId(world: World, tool: string, field: string): string | null | undefined {
  switch (field) {
    case 'bit_id':
    case 'source_bit_id':
    case 'start_bit_id':
      return world.bitId;
    case 'target_bit_id':
      return world.targetBitId;
    case 'parent_element_id':
      return world.checkListId;
    case 'element_id':
    case 'remove_node_ids':
      return world.elementId;
    case 'id':
      return tool === 'add_bit' || tool === 'update_bit' ? world.elementId : undefined;
    case 'connection_id':
      return world.connectionId;
    case 'flow_id':
      return world.flowId;
    case 'reference_id':
      return world.referenceId;
    case 'trail_id':
      return world.trailId;
    case 'expected_step_id':
    case 'step_id':
      return world.stepId;
    case 'scope_id':
      return world.scopeId;
    case 'principal_id':
      // Ending someone's access is probed on the world's member: the caller's own principal would shut the caller out.
      return tool === 'remove_group_member' || tool === 'end_person_access' ? world.memberId : world.principalId;
    case 'principal_ids':
    case 'started_by_id':
      return world.principalId;
    case 'group_id':
      return world.groupId;
    case 'webhook_id':
      return world.webhookId;
    case 'delivery_id':
      return world.deliveryId;
    case 'notification_ids':
      return world.notificationId;
    case 'resource_id':
      // list_history's filter, and the revision tools' resource (resource_type's first option: a bit).
      return ['list_history', 'get_revision', 'diff_revisions', 'restore_revision'].includes(tool) ? world.bitId : undefined;
    default:
      return undefined;
  }
}

/** Removes optional/nullable/default wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) return unwrap(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodPipe) return unwrap(schema.in as z.ZodType);
  return schema;
}

export function isOptional(schema: z.ZodType): boolean {
  return schema instanceof z.ZodOptional || schema instanceof z.ZodDefault;
}

/** The shape of an object schema (field name → schema). */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> | null {
  const inner = unwrap(schema);
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : null;
}

/**
 * Paths to every id field of a tool's input: top-level fields (`['bit_id']`), and fields of objects inside
 * arrays (`['data', 0, 'element_id']`, `['elements', 0, 'id']`).
 */
export function idPaths(tool: Operation): Array<Array<string | number>> {
  const paths: Array<Array<string | number>> = [];
  const walk = (schema: z.ZodType, prefix: Array<string | number>, depth: number) => {
    const shape = shapeOf(schema);
    if (!shape || depth > 3) return;
    for (const [name, field] of Object.entries(shape)) {
      if (isIdField(name)) paths.push([...prefix, name]);
      const inner = unwrap(field);
      if (inner instanceof z.ZodArray) walk(inner.element as z.ZodType, [...prefix, name, 0], depth + 1);
      else if (inner instanceof z.ZodObject) walk(inner, [...prefix, name], depth + 1);
    }
  };
  walk(tool.input, [], 0);
  return paths;
}

/** A plain value of a schema's type: the first enum option, an empty array, an object of its required fields. */
export function sample(schema: z.ZodType): unknown {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodString) return 'probe';
  if (inner instanceof z.ZodNumber) return 0;
  if (inner instanceof z.ZodBoolean) return false;
  if (inner instanceof z.ZodEnum) return inner.options[0];
  if (inner instanceof z.ZodLiteral) return inner.value;
  if (inner instanceof z.ZodArray) return [];
  if (inner instanceof z.ZodRecord) return {};
  if (inner instanceof z.ZodUnion) return sample(inner.options[0] as z.ZodType);
  if (inner instanceof z.ZodObject) {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) if (!isOptional(field)) out[name] = sample(field);
    return out;
  }
  return null;
}

/**
 * Non-id fields whose plain sample would fail validation or miss the nested ids the probe needs: the
 * smallest input that gets past validation to the record lookups.
 */
export function overrides(tool: string, world: World): Record<string, unknown> {
  switch (tool) {
    case 'create_reference':
      return { reference_content: [{ type: 'p', children: [{ text: 'probe' }] }] };
    case 'submit_step_data':
    case 'save_step':
      return { data: [{ element_id: world.elementId, element_type: 'TextArea', value: { value: 'probe' } }] };
    case 'assign_step':
      // To nobody: the one target every caller's world has.
      return { to: null };
    case 'create_webhook':
      return { url: 'https://127.0.0.1:9/hook', event_types: ['*'] };
    case 'add_group_members':
      return { people: [world.memberId] };
    case 'invite_person':
      // An email no one of the account has yet: each call invites a new person.
      return { email: `probe-${randomUUID()}@example.com`, max_capabilities: ['waymark.read'] };
    case 'get_revision':
    case 'restore_revision':
      return { resource_type: 'bit', revision: 1 };
    case 'diff_revisions':
      return { resource_type: 'bit' };
    case 'mark_notifications_read':
      return { notification_ids: [world.notificationId] };
    case 'update_bit':
      return { elements: [{ id: world.elementId, type: 'text-area', props: { label: 'Probe' } }] };
    default:
      return {};
  }
}

/**
 * The base input for probing one id field, when that field only counts beside others: remove_node_ids
 * with a body, parent_element_id on an entry that edits a check-list item.
 */
export function fieldBase(tool: Operation, path: Array<string | number>, world: World): Record<string, unknown> {
  const base = baseInput(tool, world);
  const field = String(path[path.length - 1]);
  if (tool.name === 'update_bit' && path.includes('items')) {
    return { bit_id: base.bit_id, elements: [{ id: world.checkListId, type: 'check-list', items: [{ id: world.itemId, text: 'Probe' }] }] };
  }
  if (tool.name === 'update_bit' && field === 'remove_node_ids') return { bit_id: base.bit_id, bit_body: 'probe', content_format: 'markdown' };
  if (tool.name === 'update_bit' && field === 'parent_element_id') {
    return { bit_id: base.bit_id, elements: [{ id: world.itemId, parent_element_id: world.checkListId, type: 'check-list', props: { text: 'Probe' } }] };
  }
  return base;
}

/**
 * The base input of a tool for a caller whose own records are `world`: every required field, every
 * top-level id field filled with the world's record (optional ones too, unless null), nested ids as the
 * overrides place them.
 */
export function baseInput(tool: Operation, world: World): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const shape = tool.input.shape as Record<string, z.ZodType>;
  for (const [name, field] of Object.entries(shape)) {
    if (isIdField(name)) {
      // remove_node_ids needs a body; the probe sets it on its own row.
      if (isOptional(field) && name.endsWith('_ids')) continue;
      const id = worldId(world, tool.name, name);
      if (id === undefined) throw new Error(`${tool.name}.${name}: no record of this kind in the probe world; add it to test/probe-world.ts`);
      if (id !== null) input[name] = name.endsWith('_ids') ? [id] : id;
      continue;
    }
    if (!isOptional(field)) input[name] = sample(field);
  }
  return { ...input, ...overrides(tool.name, world) };
}

/** The world's record that a path names: as worldId, but an item's `id` is the check-list item. */
export function pathId(world: World, tool: string, path: Array<string | number>): string | null | undefined {
  return path.includes('items') ? world.itemId : worldId(world, tool, String(path[path.length - 1]));
}

/** A copy of `input` with the value at `path` set (an `_ids` leaf takes an array). */
export function withPath(input: Record<string, unknown>, path: Array<string | number>, value: string): Record<string, unknown> | null {
  const copy = structuredClone(input);
  let at: unknown = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at !== 'object' || at === null) return null;
    const next: unknown = Reflect.get(at, key);
    if (typeof next !== 'object' || next === null) return null;
    at = next;
  }
  if (typeof at !== 'object' || at === null) return null;
  const leaf = path[path.length - 1] as string;
  Reflect.set(at, leaf, leaf.endsWith('ids') ? [value] : value);
  return copy;
}

/** Every row of every table (Kysely's own tables aside), sorted: equal before and after = nothing written. */
/**
 * Tables a refused call may change by design: shared_counters holds the request rates of every process (migration
 * 018), which count each request, refused or not, and are flushed in the background.
 */
const ACCOUNTING = new Set(['shared_counters']);

export async function dumpStore(store: Store): Promise<string> {
  const tables = (await store.db.introspection.getTables()).map((t) => t.name).filter((name) => !ACCOUNTING.has(name)).sort();
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await store.db
      .selectFrom(table as 'bits')
      .selectAll()
      .execute();
    parts.push(`${table}: ${rows.map((r) => JSON.stringify(r)).sort().join('\n')}`);
  }
  return parts.join('\n');
}
