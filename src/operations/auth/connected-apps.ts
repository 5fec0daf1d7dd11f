/**
 * A person's OAuth grants and own API keys (issue 12): the apps they let act as them, and revoking one (with
 * every token issued under it); their own `waymark token` API keys, and revoking one. Only the person's own web
 * session may call these (issue 24, finding 4; OperationDeclaration.sessionOnly); each sees only its own principal's.
 */
import { z } from 'zod';
import { grantListShape, grantRevokedShape, ownTokenListShape, tokenRevokedShape } from '../../services/auth/shapes.js';
import { ANY_TOKEN_ACCESS } from '../../services/actor.js';
import { defineOperation } from '../operation.js';

const id = z.string().min(1).max(200);

export const listGrantsOperation = defineOperation({
  name: 'list_grants',
  title: 'My connected apps',
  description: 'The apps the signed-in person connected, one per app: its client id, the hosts it redirects to, the capabilities it holds, when it was connected and last used, and until when.',
  flags: { W: false, D: false, I: true },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'get', path: '/oauth/grants', operationId: 'listGrants' },
  mcp: false,
  sessionOnly: true,
  input: z.strictObject({}),
  output: grantListShape,
  run: async ({ actor, services }) => ({ grants: await services.oauth.listGrants(actor) }),
});

export const revokeGrantOperation = defineOperation({
  name: 'revoke_grant',
  title: 'Disconnect an app',
  description: 'Disconnects an app: revokes the signed-in person\'s grant, every other grant the same app holds for them, and every token issued under them.',
  flags: { W: true, D: true, I: false },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'delete', path: '/oauth/grants/:grant_id', operationId: 'revokeGrant' },
  mcp: false,
  sessionOnly: true,
  input: z.strictObject({ grant_id: id }),
  output: grantRevokedShape,
  run: ({ actor, services }, input) => services.oauth.revokeGrant(actor, input.grant_id),
});

export const listOwnTokensOperation = defineOperation({
  name: 'list_own_tokens',
  title: 'My API keys',
  description: 'The signed-in person\'s own live API keys (`waymark token create`): id, capabilities, when made and until when. Never the secret.',
  flags: { W: false, D: false, I: true },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'get', path: '/oauth/tokens', operationId: 'listOwnTokens' },
  mcp: false,
  sessionOnly: true,
  input: z.strictObject({}),
  output: ownTokenListShape,
  run: async ({ actor, services }) => ({ tokens: await services.auth.listOwnTokens(actor) }),
});

export const revokeOwnTokenOperation = defineOperation({
  name: 'revoke_own_token',
  title: 'Revoke an API key',
  description: 'Revokes one of the signed-in person\'s own API keys; revoking a revoked key changes nothing.',
  flags: { W: true, D: true, I: true },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'delete', path: '/oauth/tokens/:token_id', operationId: 'revokeOwnToken' },
  mcp: false,
  sessionOnly: true,
  input: z.strictObject({ token_id: id }),
  output: tokenRevokedShape,
  run: async ({ actor, services }, input) => {
    const { revokedAt } = await services.auth.revokeToken(input.token_id, actor);
    return { token_id: input.token_id, revoked_at: revokedAt };
  },
});
