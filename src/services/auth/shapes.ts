/**
 * What the auth aggregate's operations answer: who is signed in (`me`), a person's connected apps (OAuth grants)
 * and own API keys. The REST door and OpenAPI derive from these, and the web app imports their `z.infer` types.
 */
import { z } from 'zod';
import { PERMISSIONS, PRINCIPAL_KINDS } from '../../store/enums.js';

export const meShape = z.object({
  principal_id: z.string(),
  name: z.string().nullable(),
  kind: z.enum(PRINCIPAL_KINDS),
  permission: z.enum(PERMISSIONS),
  scope_id: z.string().nullable(),
  account_id: z.string(),
  account_name: z.string().nullable(),
  capabilities: z.array(z.string()),
  auth: z.enum(['session', 'bearer']).describe('How the caller is signed in: its web session (cookie) or a Bearer token.'),
  csrf_token: z.string().nullable().describe('The CSRF token a session\'s state-changing requests carry as x-csrf-token; null with a Bearer token.'),
  session_expires_date_time_utc: z.string().nullable(),
});
export type Me = z.infer<typeof meShape>;

/** Principals by name and kind: who a trail's history or a change names (trail_people, people). */
export const peopleShape = z.object({ people: z.array(z.object({ principal_id: z.string(), name: z.string(), kind: z.enum(PRINCIPAL_KINDS) })) });
export type People = z.infer<typeof peopleShape>;

/**
 * The account's people as the `people` operation and an Admin's people page show them (issue 27): with their email
 * where the caller may read it (an Admin, or the person themselves; null otherwise, and when none is set).
 */
export const personShape = peopleShape.shape.people.element.extend({
  email: z.string().nullable(),
  scope_id: z.string().nullable(),
  permission: z.enum(PERMISSIONS).nullable().describe('Shown to an Admin and to the person themself; null otherwise.'),
  max_capabilities: z.array(z.string()).nullable().describe('The most any credential of theirs may carry (sign-in, token, connected app); shown to an Admin and to the person themself.'),
});
export type PersonView = z.infer<typeof personShape>;
export const directoryShape = z.object({ people: z.array(personShape) });
export type Directory = z.infer<typeof directoryShape>;

/** An Admin's invitation (issue 28): the new person, and their one-time sign-in link unless it went by mail. */
export const invitationShape = z.object({
  person: personShape,
  mailed: z.boolean().describe('The sign-in link was put in the mail to the person (the server has SMTP); it is not in this answer.'),
  signin_token: z.string().nullable().describe('When not mailed: the link\'s secret, shown this once. The link is <server>/app/signin?token=<signin_token>.'),
  expires_at: z.string().describe('When the link stops working, used or not.'),
});
export type Invitation = z.infer<typeof invitationShape>;

/** What ending a person's access ended (issue 28). */
export const accessEndedShape = z.object({
  principal_id: z.string(),
  sessions_ended: z.number().int(),
  links_cancelled: z.number().int(),
  tokens_revoked: z.number().int(),
  grants_revoked: z.number().int(),
});
export type AccessEnded = z.infer<typeof accessEndedShape>;

export const signedOutShape = z.object({ signed_out: z.boolean() });

/**
 * One app a person connected (issue 28): every live grant the same client holds for them is one row (a client that
 * signs in again makes a new grant), and a grant no token was ever issued under (an authorization left unfinished)
 * is none.
 */
export const grantViewShape = z.object({
  grant_id: z.string().describe('The newest of the app\'s grants; revoking it disconnects the app (all its grants).'),
  client_id: z.string(),
  client_name: z.string().nullable(),
  redirect_hosts: z.array(z.string()),
  capabilities: z.array(z.string()),
  created_at: z.string().describe('When the person first connected the app.'),
  last_used_at: z.string().describe('When the app last got a token (it gets one at least every hour it is used).'),
  expires_at: z.string().nullable(),
});
export type GrantView = z.infer<typeof grantViewShape>;

export const grantListShape = z.object({ grants: z.array(grantViewShape) });
export const grantRevokedShape = z.object({ grant_id: z.string(), revoked: z.literal(true) });

export const ownTokenShape = z.object({
  token_id: z.string(),
  capabilities: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
});
export type OwnTokenView = z.infer<typeof ownTokenShape>;

export const ownTokenListShape = z.object({ tokens: z.array(ownTokenShape) });
export const tokenRevokedShape = z.object({ token_id: z.string(), revoked_at: z.string() });

/** A scope of the account by name (issue 28): what the People page offers to put a person in. */
export const scopeViewShape = z.object({ scope_id: z.string(), name: z.string() });
export type ScopeView = z.infer<typeof scopeViewShape>;
export const scopeListShape = z.object({ scopes: z.array(scopeViewShape) });
export type ScopeList = z.infer<typeof scopeListShape>;
