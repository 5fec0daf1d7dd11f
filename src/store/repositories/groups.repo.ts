/**
 * Groups of people and their members (migration 017). Reads take the caller's visibility (visibility.ts), so another
 * account's group and a hidden scope's group are never read; members are rows of the group's own account.
 */
import { sql, type Updateable } from 'kysely';
import { OPEN_TRAIL_STATUSES } from '../enums.js';
import type { GroupTable, PrincipalTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';

type Q = Db | Tx;

export async function insertGroup(q: Q, row: GroupTable): Promise<void> {
  await q.insertInto('groups').values(row).execute();
}

export async function findGroup(q: Q, id: string, seen: Visibility): Promise<GroupTable | undefined> {
  return q.selectFrom('groups').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

/** A group by its name, compared as written but for case (names are unique in the account, case and all). */
export async function findGroupByName(q: Q, name: string, seen: Visibility): Promise<GroupTable | undefined> {
  return q.selectFrom('groups').selectAll().where(sql<boolean>`lower(name) = lower(${name})`).where(visibleTo(seen)).orderBy('name').executeTakeFirst();
}

/** Whether the account already has a group of this name (in any scope: names are unique in the account). */
export async function nameTaken(q: Q, accountId: string, name: string, exceptId?: string): Promise<boolean> {
  let query = q.selectFrom('groups').select('id').where('account_id', '=', accountId).where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The groups the caller may see, by name, with how many members each has. */
export async function listGroups(q: Q, seen: Visibility) {
  return q
    .selectFrom('groups')
    .selectAll('groups')
    .select((eb) => eb.selectFrom('group_members').select((m) => m.fn.countAll<number | string | bigint>().as('n')).whereRef('group_members.group_id', '=', 'groups.id').as('member_count'))
    .where(visibleTo(seen, 'groups'))
    .orderBy('groups.name')
    .orderBy('groups.id')
    .execute();
}

export async function updateGroup(q: Q, id: string, changes: Updateable<GroupTable>): Promise<void> {
  await q.updateTable('groups').set(changes).where('id', '=', id).execute();
}

export async function deleteGroup(q: Q, id: string): Promise<void> {
  await q.deleteFrom('group_members').where('group_id', '=', id).execute();
  await q.deleteFrom('groups').where('id', '=', id).execute();
}

/** A group's members by name, with their emails. */
export async function listMembers(q: Q, groupId: string) {
  return q
    .selectFrom('group_members')
    .innerJoin('principals', 'principals.id', 'group_members.principal_id')
    .select(['principals.id', 'principals.name', 'principals.email', 'group_members.added_at'])
    .where('group_members.group_id', '=', groupId)
    .orderBy('principals.name')
    .orderBy('principals.id')
    .execute();
}

/** Adds the members it does not hold yet; answers the principal ids it added. */
export async function addMembers(q: Q, group: Pick<GroupTable, 'id' | 'account_id'>, principalIds: readonly string[], now: string): Promise<string[]> {
  if (principalIds.length === 0) return [];
  const held = new Set((await q.selectFrom('group_members').select('principal_id').where('group_id', '=', group.id).where('principal_id', 'in', [...principalIds]).execute()).map((r) => r.principal_id));
  const fresh = [...new Set(principalIds)].filter((id) => !held.has(id));
  if (fresh.length > 0) await q.insertInto('group_members').values(fresh.map((principal_id) => ({ group_id: group.id, principal_id, account_id: group.account_id, added_at: now }))).execute();
  return fresh;
}

/** Removes one member; answers whether it was one. */
export async function removeMember(q: Q, groupId: string, principalId: string): Promise<boolean> {
  const result = await q.deleteFrom('group_members').where('group_id', '=', groupId).where('principal_id', '=', principalId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The active bits of the account that name the group as their assignee (up to `limit`), by title. */
export async function bitsAssignedTo(q: Q, accountId: string, assignee: string, limit: number) {
  return q.selectFrom('bits').select(['id', 'title']).where('account_id', '=', accountId).where('assignee', '=', assignee).orderBy('title').orderBy('id').limit(limit).execute();
}

/** The running trails whose current step is offered to the group (up to `limit`). */
export async function openTrailsOfGroup(q: Q, accountId: string, groupId: string, limit: number) {
  return q
    .selectFrom('trails')
    .select(['id'])
    .where('account_id', '=', accountId)
    .where('step_group', '=', groupId)
    .where('status', 'in', [...OPEN_TRAIL_STATUSES])
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** A person of the account by id or email (emails are stored lower-cased). */
export async function findPersonByRef(q: Q, accountId: string, ref: string): Promise<PrincipalTable | undefined> {
  const byEmail = ref.includes('@');
  return q
    .selectFrom('principals')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', 'person')
    .where(byEmail ? 'email' : 'id', '=', byEmail ? ref.trim().toLowerCase() : ref)
    .executeTakeFirst();
}
