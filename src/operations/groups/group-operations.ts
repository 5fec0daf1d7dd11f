/**
 * Groups of people (issue 27), declared once for every door: anyone of the account may list them and read one's
 * members (a step is handed to a group by its name or id); an Admin makes, changes and removes them and chooses their
 * members, in the app, over REST and at the command line (`waymark group`). None is an MCP tool (tools/list's budget).
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { groupListShape, groupWithMembersShape } from '../../services/groups/shapes.js';
import { recordId, scopeId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

const groupId = recordId();
const name = z.string().min(1).max(LIMITS.groupName);
const description = z.string().max(LIMITS.groupDescription);
const ADMIN = { capability: 'author', permission: 'admin' } as const;

export const listGroupsOperation = defineOperation({
  name: 'list_groups',
  title: 'List groups',
  description: 'The groups of people you can see, with member counts: a step can be handed to one.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/groups', operationId: 'listGroups' },
  // Not an MCP tool: with its output schema it cost 153 o200k tokens of tools/list, over the 90 it was given.
  mcp: false,
  input: z.strictObject({}),
  output: groupListShape,
  run: ({ actor, services }) => services.groups.list(actor),
});

export const getGroupOperation = defineOperation({
  name: 'get_group',
  title: 'A group and its members',
  description: 'The group with its members by name.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/groups/:group_id', operationId: 'getGroup' },
  mcp: false,
  input: z.strictObject({ group_id: groupId }),
  output: groupWithMembersShape,
  run: ({ actor, services }, input) => services.groups.get(actor, input),
});

export const createGroupOperation = defineOperation({
  name: 'create_group',
  title: 'Make a group',
  description: `A group of people, its name unique in the account (1 to ${LIMITS.groupName} characters), at account level or in a scope.`,
  flags: { W: true, D: false, I: false },
  access: ADMIN,
  rest: { method: 'post', path: '/groups', operationId: 'createGroup' },
  mcp: false,
  input: z.strictObject({ name, description: description.nullable().optional(), scope_id: scopeId.nullable().optional() }),
  output: groupWithMembersShape,
  run: ({ actor, services }, input) => services.groups.create(actor, input),
});

export const updateGroupOperation = defineOperation({
  name: 'update_group',
  title: 'Rename or describe a group',
  description: 'Changes the group\'s name or description (null clears it).',
  flags: { W: true, D: false, I: true },
  access: ADMIN,
  rest: { method: 'post', path: '/groups/:group_id', operationId: 'updateGroup' },
  mcp: false,
  input: z.strictObject({ group_id: groupId, name: name.optional(), description: description.nullable().optional() }),
  output: groupWithMembersShape,
  run: ({ actor, services }, input) => services.groups.update(actor, input),
});

export const deleteGroupOperation = defineOperation({
  name: 'delete_group',
  title: 'Remove a group',
  description: 'Removes the group and its memberships; refused while a bit names it as who does its step, or a running trail\'s step waits for it (details.bit_ids, details.trail_ids).',
  flags: { W: true, D: true, I: false },
  access: ADMIN,
  rest: { method: 'delete', path: '/groups/:group_id', operationId: 'deleteGroup' },
  mcp: false,
  input: z.strictObject({ group_id: groupId }),
  output: z.object({ group_id: z.string(), removed: z.literal(true) }),
  run: ({ actor, services }, input) => services.groups.remove(actor, input),
});

export const addGroupMembersOperation = defineOperation({
  name: 'add_group_members',
  title: 'Add people to a group',
  description: 'Adds people of the account, each named by principal id or email; those already in the group stay.',
  flags: { W: true, D: false, I: true },
  access: ADMIN,
  rest: { method: 'post', path: '/groups/:group_id/members', operationId: 'addGroupMembers' },
  mcp: false,
  input: z.strictObject({ group_id: groupId, people: z.array(z.string().min(1).max(LIMITS.emailLength)).min(1).max(LIMITS.pageSize).describe('Principal ids or emails.') }),
  output: groupWithMembersShape,
  run: ({ actor, services }, input) => services.groups.addMembers(actor, input),
});

export const removeGroupMemberOperation = defineOperation({
  name: 'remove_group_member',
  title: 'Take a person out of a group',
  description: 'Takes the person out of the group.',
  flags: { W: true, D: true, I: false },
  access: ADMIN,
  rest: { method: 'delete', path: '/groups/:group_id/members/:principal_id', operationId: 'removeGroupMember' },
  mcp: false,
  input: z.strictObject({ group_id: groupId, principal_id: recordId() }),
  output: groupWithMembersShape,
  run: ({ actor, services }, input) => services.groups.removeMember(actor, input),
});

export const GROUP_OPERATIONS = [listGroupsOperation, getGroupOperation, createGroupOperation, updateGroupOperation, deleteGroupOperation, addGroupMembersOperation, removeGroupMemberOperation];
