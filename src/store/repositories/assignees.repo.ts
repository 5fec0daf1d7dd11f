/**
 * Who a trail step can be given to (issue 27): the people and groups of an account as the trails read them when a
 * step is entered, handed over, claimed or reassigned. The groups themselves are written by the groups service;
 * these are only the reads a step's assignment needs, each inside what the caller may see (visibleTo), so a person
 * or group of another account or of a scope the caller cannot see is not found.
 */
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';

type Q = Db | Tx;

export interface PersonRow {
  id: string;
  name: string;
  kind: 'person' | 'agent';
}

/** A principal of the account by id, or by email (stored lower-cased), if `seen` may see it. */
export async function findPrincipalByRef(q: Q, seen: Visibility, ref: string): Promise<PersonRow | undefined> {
  const text = ref.trim();
  const query = q.selectFrom('principals').select(['id', 'name', 'kind']).where(visibleTo(seen));
  const byId = await query.where('id', '=', text).executeTakeFirst();
  if (byId || !text.includes('@')) return byId;
  return query.where('email', '=', text.toLowerCase()).executeTakeFirst();
}

export interface GroupRow {
  id: string;
  name: string;
}

/** A group of the account by id, or by name (names are unique per account), if `seen` may see it. */
export async function findGroupByRef(q: Q, seen: Visibility, ref: string): Promise<GroupRow | undefined> {
  const text = ref.trim();
  const query = q.selectFrom('groups').select(['id', 'name']).where(visibleTo(seen));
  return (await query.where('id', '=', text).executeTakeFirst()) ?? (await query.where('name', '=', text).executeTakeFirst());
}

/** Whether the principal is a member of the group. */
export async function isMember(q: Q, groupId: string, principalId: string): Promise<boolean> {
  const row = await q.selectFrom('group_members').select('group_id').where('group_id', '=', groupId).where('principal_id', '=', principalId).executeTakeFirst();
  return row !== undefined;
}

/** The ids of the groups the principal belongs to (group_members_principal). */
export async function groupIdsOf(q: Q, accountId: string, principalId: string): Promise<string[]> {
  const rows = await q.selectFrom('group_members').select('group_id').where('principal_id', '=', principalId).where('account_id', '=', accountId).orderBy('group_id').execute();
  return rows.map((r) => r.group_id);
}

/** Names of these principals and groups of the account, for views that say who a step waits for. */
export async function namesOf(q: Q, accountId: string, principalIds: string[], groupIds: string[]): Promise<{ people: Map<string, PersonRow>; groups: Map<string, string> }> {
  const people = principalIds.length === 0 ? [] : await q.selectFrom('principals').select(['id', 'name', 'kind']).where('account_id', '=', accountId).where('id', 'in', principalIds).execute();
  const groups = groupIds.length === 0 ? [] : await q.selectFrom('groups').select(['id', 'name']).where('account_id', '=', accountId).where('id', 'in', groupIds).execute();
  return { people: new Map(people.map((p) => [p.id, p])), groups: new Map(groups.map((g) => [g.id, g.name])) };
}
