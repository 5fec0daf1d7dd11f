import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { allCapabilityNames } from '../../config.js';
import { accessEndedShape, directoryShape, invitationShape, personShape } from '../../services/auth/shapes.js';
import { PERMISSIONS } from '../../store/enums.js';
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

const maximum = () =>
  z
    .array(z.enum(allCapabilityNames() as [string, ...string[]]))
    .min(1)
    .max(allCapabilityNames().length)
    .describe('The most any credential of the person may carry (sign-in, token, connected app): read (read flows and trails), run (run trails), author (write flows).');

export const updatePersonOperation = defineOperation({
  name: 'update_person',
  title: 'Change a person: name, email, permission, scope, maximum',
  description:
    'An Admin changes a principal\'s name, a person\'s email (where they are told, how a mention names them; null clears it), permission, scope (null: account level) or maximum capabilities. A lower maximum cuts what their existing sign-ins, tokens and connected apps can do at once. The account\'s last Admin cannot be demoted, moved into a scope or cut below author.',
  flags: { W: true, D: false, I: true },
  access: { capability: 'author', permission: 'admin' },
  rest: { method: 'post', path: '/people/:principal_id', operationId: 'updatePerson' },
  mcp: false,
  input: z.strictObject({
    principal_id: recordId(),
    name: z.string().min(1).max(LIMITS.displayLabel).optional(),
    email: z.string().max(LIMITS.emailLength).nullable().optional(),
    permission: z.enum(PERMISSIONS).optional(),
    scope_id: recordId().nullable().optional(),
    max_capabilities: maximum().optional(),
  }),
  output: personShape,
  run: ({ actor, services }, input) => services.people.update(actor, input),
});

/**
 * Inviting a person from the app (issue 28): no command line, no UUID. The link goes by mail when the server mails,
 * else the answer carries it once for the Admin to pass on.
 */
export const invitePersonOperation = defineOperation({
  name: 'invite_person',
  title: 'Invite a person',
  description:
    'An Admin invites a person by name and email with a permission, an optional scope and the most any credential of theirs may carry. The person gets a one-time sign-in link (valid 7 days): by mail when the server sends mail (mailed: true), otherwise in this answer, once (signin_token).',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'admin' },
  rest: { method: 'post', path: '/people', operationId: 'invitePerson' },
  mcp: false,
  input: z.strictObject({
    name: z.string().min(1).max(LIMITS.displayLabel),
    email: z.string().min(1).max(LIMITS.emailLength),
    permission: z.enum(PERMISSIONS).describe('view: reads and runs what is shared; edit: also writes flows; admin: also manages people and groups.'),
    scope_id: recordId().nullable().optional().describe('Put the person in this scope; omit or null for the whole account.'),
    max_capabilities: maximum(),
  }),
  output: invitationShape,
  run: ({ actor, services }, input) => services.people.invite(actor, input),
});

export const endPersonAccessOperation = defineOperation({
  name: 'end_person_access',
  title: 'End all sessions and access of a person',
  description:
    'An Admin ends a person\'s (or agent\'s) access at once: every sign-in session and unused sign-in link, every token and every connected app. The person stays in the account and can be invited to sign in again. The account\'s last Admin cannot be shut out.',
  flags: { W: true, D: true, I: true },
  access: { capability: 'author', permission: 'admin' },
  rest: { method: 'post', path: '/people/:principal_id/end-access', operationId: 'endPersonAccess' },
  mcp: false,
  input: z.strictObject({ principal_id: recordId() }),
  output: accessEndedShape,
  run: ({ actor, services }, input) => services.people.endAccess(actor, input.principal_id),
});
