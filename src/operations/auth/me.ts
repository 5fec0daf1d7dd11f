import { z } from 'zod';
import { WaymarkError } from '../../errors.js';
import { meShape, signedOutShape } from '../../services/auth/shapes.js';
import { ANY_TOKEN_ACCESS } from '../../services/actor.js';
import { defineOperation, type SessionPort } from '../operation.js';


function sessionOf(session: SessionPort | undefined): SessionPort {
  if (!session) throw new WaymarkError('INTERNAL_ERROR', 'This operation is served only over HTTP.');
  return session;
}

/** Who is signed in, and the CSRF token its session's state-changing requests carry (null with a Bearer token). */
export const meOperation = defineOperation({
  name: 'me',
  title: 'Who is signed in',
  description:
    'The caller\'s principal, account and capabilities; with a session, the CSRF token its POST requests carry (header X-CSRF-Token) and when the session ends at the latest.',
  flags: { W: false, D: false, I: true },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'get', path: '/me', operationId: 'me' },
  mcp: false,
  input: z.strictObject({}),
  output: meShape,
  run: async ({ actor, services, session }) => {
    const port = sessionOf(session);
    const principal = await services.auth.principal(actor.principalId);
    return {
      principal_id: actor.principalId,
      name: principal?.name ?? null,
      kind: actor.kind,
      permission: actor.permission,
      scope_id: actor.scopeId,
      account_id: actor.accountId,
      account_name: await services.auth.accountName(actor.accountId),
      capabilities: actor.capabilities,
      auth: port.signedIn ? ('session' as const) : ('bearer' as const),
      csrf_token: port.csrfToken(),
      session_expires_date_time_utc: port.expiresAt,
    };
  },
});

export const signOutOperation = defineOperation({
  name: 'sign_out',
  title: 'End the web app session',
  description: 'Ends the session of the cookie and clears it (X-CSRF-Token required). With a Bearer token there is no session: signed_out is false.',
  flags: { W: true, D: false, I: true },
  access: ANY_TOKEN_ACCESS,
  rest: { method: 'post', path: '/signout', operationId: 'signOut' },
  mcp: false,
  input: z.strictObject({}),
  output: signedOutShape,
  run: async ({ session }) => ({ signed_out: await sessionOf(session).signOut() }),
});
