import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { directoryShape, personShape } from '../../services/auth/shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

/**
 * Who the principals of a page of changes are (issue 26): list_history names them by id only, and the web app's
 * Activity page says who changed what by name; without ids, the account's people, whom an Admin groups and names
 * (issue 27). Not an MCP tool: an agent reads ids.
 */
export const peopleOperation = defineOperation({
  name: 'people',
  title: 'Who these principals are',
  description:
    'The names, kinds (person or agent) and emails of these principals, as list_history names them by principal_id, or without principal_ids of every principal you may see. Only principals of your account (of your scope, for a scope-limited token) are answered; any other id is left out. An email is shown to an Admin and to its own person.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/people', operationId: 'getPeople' },
  mcp: false,
  input: z.strictObject({
    principal_ids: z.array(recordId()).min(1).max(LIMITS.pageSize).optional().describe(`1 to ${LIMITS.pageSize} principal ids; repeat the query key for each. Omit for everyone.`),
  }),
  output: directoryShape,
  run: ({ actor, services }, input) => services.people.list(actor, input),
});

export const updatePersonOperation = defineOperation({
  name: 'update_person',
  title: 'Name a person, set their email',
  description: 'An Admin changes a principal\'s name, or sets a person\'s email (where they are told, how a mention names them; null clears it). An email is one person\'s in the account.',
  flags: { W: true, D: false, I: true },
  access: { capability: 'author', permission: 'admin' },
  rest: { method: 'post', path: '/people/:principal_id', operationId: 'updatePerson' },
  mcp: false,
  input: z.strictObject({
    principal_id: recordId(),
    name: z.string().min(1).max(LIMITS.displayLabel).optional(),
    email: z.string().max(LIMITS.emailLength).nullable().optional(),
  }),
  output: personShape,
  run: ({ actor, services }, input) => services.people.update(actor, input),
});
