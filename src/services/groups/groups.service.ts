/**
 * Groups of people (issue 27): an Admin makes, renames, describes and removes them and chooses their members, so a
 * step can be offered to a group; anyone of the account may list them and see their members by name (the names are
 * what a person or agent hands a step to). A group lives at account level or in a scope, as bits and flows do; its
 * name is unique in the account. Each accepted change records one event.
 */
import { randomUUID } from 'node:crypto';
import { WaymarkError, validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { quote } from '../../quote.js';
import * as repo from '../../store/repositories/groups.repo.js';
import type { GroupTable } from '../../store/schema.js';
import type { Db, Store, Tx } from '../../store/store.js';
import type { Visibility } from '../../store/visibility.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import { nowIso } from '../clock.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { resolveScope } from '../scopes.js';
import { findPerson } from './people.js';
import type { GroupList, GroupView, GroupWithMembers } from './shapes.js';

export interface CreateGroupInput {
  name: string;
  description?: string | null;
  scope_id?: string | null;
}

export interface UpdateGroupInput {
  group_id: string;
  name?: string;
  description?: string | null;
}

/** How many bits or trails a refused delete names. */
const NAMED_IN_REFUSAL = 20;

export function groupNotFound(ref: string, path = 'group_id'): WaymarkError {
  return new WaymarkError('GROUP_NOT_FOUND', `No group ${JSON.stringify(quote(ref))} is visible to you: list_groups lists the groups by name and id.`, { group: ref, path });
}

/** The group a reference names (its id, or its name, case aside), as the caller sees them; GROUP_NOT_FOUND otherwise. */
export async function findGroupByRef(q: Db | Tx, seen: Visibility, ref: string, path = 'group_id'): Promise<GroupTable> {
  const group = (await repo.findGroup(q, ref, seen)) ?? (await repo.findGroupByName(q, ref, seen));
  if (!group) throw groupNotFound(ref, path);
  return group;
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > LIMITS.groupName) throw validationError([{ path: 'name', message: `a group's name is 1 to ${LIMITS.groupName} characters, not blank` }]);
  return trimmed;
}

function checkedDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? '';
  if (trimmed.length > LIMITS.groupDescription) throw validationError([{ path: 'description', message: `at most ${LIMITS.groupDescription} characters` }]);
  return trimmed === '' ? null : trimmed;
}

function nameTaken(name: string): WaymarkError {
  return validationError([{ path: 'name', message: `your account already has a group named ${JSON.stringify(name)}: choose another name, or change that group` }]);
}

function viewOf(row: GroupTable, memberCount: number): GroupView {
  return {
    group_id: row.id,
    name: row.name,
    description: row.description,
    scope_id: row.scope_id,
    member_count: memberCount,
    created_date_time_utc: row.created_at,
    updated_date_time_utc: row.updated_at,
  };
}

export class GroupsService {
  constructor(private readonly store: Store) {}

  async list(actor: Actor): Promise<GroupList> {
    const rows = await repo.listGroups(this.store.db, actor);
    return { groups: rows.map(({ member_count, ...row }) => viewOf(row, Number(member_count ?? 0))) };
  }

  async get(actor: Actor, input: { group_id: string }): Promise<GroupWithMembers> {
    return this.withMembers(this.store.db, await findGroupByRef(this.store.db, actor, input.group_id));
  }

  private async withMembers(q: Db | Tx, group: GroupTable): Promise<GroupWithMembers> {
    const members = await repo.listMembers(q, group.id);
    return { ...viewOf(group, members.length), members: members.map((m) => ({ principal_id: m.id, name: m.name })) };
  }

  async create(actor: Actor, input: CreateGroupInput): Promise<GroupWithMembers> {
    const name = checkedName(input.name);
    const description = checkedDescription(input.description);
    const scopeId = await resolveScope(this.store.db, actor, input.scope_id ?? actor.scopeId);
    assertCanWriteIn(actor, scopeId);
    const now = nowIso();
    const row: GroupTable = { id: randomUUID(), account_id: actor.accountId, scope_id: scopeId, name, description, created_at: now, updated_at: now };
    await this.write(async (tx) => {
      if (await repo.nameTaken(tx, actor.accountId, name)) throw nameTaken(name);
      await repo.insertGroup(tx, row);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'group', resourceId: row.id, scopeId, summary: { name } });
    }, name);
    return { ...viewOf(row, 0), members: [] };
  }

  async update(actor: Actor, input: UpdateGroupInput): Promise<GroupWithMembers> {
    const changes: Partial<GroupTable> = {};
    if (input.name !== undefined) changes.name = checkedName(input.name);
    if (input.description !== undefined) changes.description = checkedDescription(input.description);
    return this.write(async (tx) => {
      const group = await findGroupByRef(tx, actor, input.group_id);
      assertCanWriteIn(actor, group.scope_id);
      if (changes.name !== undefined && (await repo.nameTaken(tx, actor.accountId, changes.name, group.id))) throw nameTaken(changes.name);
      const changed = Object.entries(changes).some(([key, value]) => group[key as keyof GroupTable] !== value);
      if (!changed) return this.withMembers(tx, group);
      const updated = { ...group, ...changes, updated_at: nowIso() };
      await repo.updateGroup(tx, group.id, { ...changes, updated_at: updated.updated_at });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'group', resourceId: group.id, scopeId: group.scope_id, summary: { fields: fieldsGiven(input, ['group_id']) } });
      return this.withMembers(tx, updated);
    }, changes.name);
  }

  /**
   * Removes a group and its memberships. Refused while a bit names it as who does its step, or a running trail's
   * step waits for it: a step offered to a group that is gone could be taken by no one.
   */
  async remove(actor: Actor, input: { group_id: string }): Promise<{ group_id: string; removed: true }> {
    await this.store.transaction(async (tx) => {
      const group = await findGroupByRef(tx, actor, input.group_id);
      assertCanWriteIn(actor, group.scope_id);
      const bits = await repo.bitsAssignedTo(tx, actor.accountId, `group:${group.id}`, NAMED_IN_REFUSAL);
      const trails = await repo.openTrailsOfGroup(tx, actor.accountId, group.id, NAMED_IN_REFUSAL);
      if (bits.length > 0 || trails.length > 0) {
        const uses = [
          ...(bits.length > 0 ? [`bits name it as who does their step (${bits.map((b) => JSON.stringify(b.title)).join(', ')}): give them another assignee with update_bit first`] : []),
          ...(trails.length > 0 ? [`${trails.length} running trail(s) have a step waiting for it: let them move on, or hand those steps to someone else first`] : []),
        ];
        throw validationError([{ path: 'group_id', message: `group ${JSON.stringify(group.name)} is in use` }], `Group ${JSON.stringify(group.name)} cannot be removed while it is in use: ${uses.join('; ')}.`, {
          bit_ids: bits.map((b) => b.id),
          trail_ids: trails.map((t) => t.id),
        });
      }
      await repo.deleteGroup(tx, group.id);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'group', resourceId: group.id, scopeId: group.scope_id, summary: { name: group.name, removed: true } });
    });
    return { group_id: input.group_id, removed: true };
  }

  /** Adds people (by principal id or email) to the group; those already in it stay as they are. */
  async addMembers(actor: Actor, input: { group_id: string; people: string[] }): Promise<GroupWithMembers> {
    return this.store.transaction(async (tx) => {
      const group = await findGroupByRef(tx, actor, input.group_id);
      assertCanWriteIn(actor, group.scope_id);
      const ids: string[] = [];
      for (const [i, ref] of input.people.entries()) ids.push((await findPerson(tx, actor, ref, group.scope_id, `people[${i}]`)).id);
      const added = await repo.addMembers(tx, group, ids, nowIso());
      if (added.length > 0) {
        await repo.updateGroup(tx, group.id, { updated_at: nowIso() });
        await recordChange(tx, this.store.dialect, actor, { resourceType: 'group', resourceId: group.id, scopeId: group.scope_id, summary: { members_added: added } });
      }
      return this.withMembers(tx, group);
    });
  }

  /** Takes a member (by principal id, or email at the command line) out of the group. */
  async removeMember(actor: Actor, input: { group_id: string; principal_id: string }): Promise<GroupWithMembers> {
    return this.store.transaction(async (tx) => {
      const group = await findGroupByRef(tx, actor, input.group_id);
      assertCanWriteIn(actor, group.scope_id);
      const principalId = input.principal_id.includes('@') ? ((await repo.findPersonByRef(tx, actor.accountId, input.principal_id))?.id ?? input.principal_id) : input.principal_id;
      if (await repo.removeMember(tx, group.id, principalId)) {
        await repo.updateGroup(tx, group.id, { updated_at: nowIso() });
        await recordChange(tx, this.store.dialect, actor, { resourceType: 'group', resourceId: group.id, scopeId: group.scope_id, summary: { members_removed: [principalId] } });
        return this.withMembers(tx, group);
      }
      throw new WaymarkError('PRINCIPAL_NOT_FOUND', `${JSON.stringify(quote(input.principal_id))} is not a member of group ${JSON.stringify(group.name)}: get_group lists its members.`, {
        principal: input.principal_id,
        path: 'principal_id',
      });
    });
  }

  /** A write that may insert a name: two writers racing to the same name get the same refusal, not a fault. */
  private async write<T>(body: (tx: Tx) => Promise<T>, name: string | undefined): Promise<T> {
    try {
      return await this.store.transaction(body);
    } catch (error) {
      if (name !== undefined && this.store.dialect.isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  }
}
