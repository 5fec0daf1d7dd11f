/**
 * The account's scopes by name (issue 28): the People page puts a person in a scope chosen by its name, and an Admin
 * of the whole account makes one there, with no command line. Not MCP tools: tools/list is at its token budget, and
 * an agent passes a scope_id it was given.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { scopeListShape, scopeViewShape } from '../../services/auth/shapes.js';
import { defineOperation } from '../operation.js';

export const listScopesOperation = defineOperation({
  name: 'list_scopes',
  title: 'List scopes',
  description: 'The scopes you may see, by name: every scope of your account, or for a scope-limited token its own.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/scopes', operationId: 'listScopes' },
  mcp: false,
  input: z.strictObject({}),
  output: scopeListShape,
  run: ({ actor, services }) => services.scopes.list(actor),
});

export const createScopeOperation = defineOperation({
  name: 'create_scope',
  title: 'Make a scope',
  description: `An Admin of the whole account makes a scope, its name unique in the account case aside (1 to ${LIMITS.displayLabel} characters).`,
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'admin' },
  rest: { method: 'post', path: '/scopes', operationId: 'createScope' },
  mcp: false,
  input: z.strictObject({ name: z.string().min(1).max(LIMITS.displayLabel) }),
  output: scopeViewShape,
  run: ({ actor, services }, input) => services.scopes.create(actor, input),
});
