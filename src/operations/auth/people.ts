import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { peopleShape } from '../../services/auth/shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

/**
 * Who the principals of a page of changes are (issue 26): list_history names them by id only, and the web app's
 * Activity page says who changed what by name. Not an MCP tool: an agent reads ids.
 */
export const peopleOperation = defineOperation({
  name: 'people',
  title: 'Who these principals are',
  description:
    'The names and kinds (person or agent) of these principals, as list_history names them by principal_id. Only principals of your account (of your scope, for a scope-limited token) are answered; any other id is left out.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/people', operationId: 'getPeople' },
  mcp: false,
  input: z.strictObject({
    principal_ids: z.array(recordId()).min(1).max(LIMITS.pageSize).describe(`1 to ${LIMITS.pageSize} principal ids; repeat the query key for each.`),
  }),
  output: peopleShape,
  run: ({ actor, services }, input) => services.auth.people(actor, input),
});
