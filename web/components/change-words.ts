/**
 * A change in a person's words (issue 26): who made it, what they did and to what, and why a change was refused.
 * list_history names operations and principals by their ids; the Activity page and the history panels say them here.
 */
import type { EventResourceType } from '../../src/store/enums.js';
import { ApiError, people, type EventView, type Me, type People } from '../api.js';

interface OperationWords {
  /** The filter's name for it. */
  label: string;
  /** What the sentence says was done; the resource follows unless `alone`. */
  verb: string;
  /** The resource is not worth naming (a sign-in's session). */
  alone?: true;
}

/** The operations that record changes (every writing operation, the sign-in paths, the CLI's commands). */
export const OPERATION_WORDS: Record<string, OperationWords> = {
  add_bit: { label: 'Bit created', verb: 'created' },
  update_bit: { label: 'Bit edited', verb: 'edited' },
  archive_bit: { label: 'Bit archived', verb: 'archived' },
  restore_bit: { label: 'Bit taken out of the archive', verb: 'took out of the archive' },
  connect_bits: { label: 'Connection added', verb: 'added a connection to' },
  remove_connection: { label: 'Connection removed', verb: 'removed a connection from' },
  create_flow: { label: 'Flow created', verb: 'created' },
  update_flow: { label: 'Flow edited', verb: 'edited' },
  review_flow: { label: 'Flow reviewed', verb: 'reviewed' },
  create_reference: { label: 'Reference created', verb: 'created' },
  update_reference: { label: 'Reference edited', verb: 'edited' },
  link_reference: { label: 'Reference linked to a bit', verb: 'linked a reference to' },
  update_bit_reference_link: { label: 'Reference link changed', verb: 'changed a reference link of' },
  unlink_reference: { label: 'Reference unlinked from a bit', verb: 'unlinked a reference from' },
  restore_revision: { label: 'Old revision restored', verb: 'restored an old revision of' },
  start_trail: { label: 'Trail started', verb: 'started' },
  submit_step_data: { label: 'Step answered (tool)', verb: 'answered a step of' },
  save_step: { label: 'Step answered (app)', verb: 'answered a step of' },
  advance_trail: { label: 'Trail moved on (tool)', verb: 'moved on in' },
  advance_step: { label: 'Trail moved on (app)', verb: 'moved on in' },
  transfer_step: { label: 'Step handed on', verb: 'handed on a step of' },
  claim_step: { label: 'Step taken', verb: 'took the current step of' },
  release_step: { label: 'Step given back', verb: 'gave back the current step of' },
  assign_step: { label: 'Step reassigned', verb: 'reassigned the current step of' },
  comment_on_step: { label: 'Comment on a step', verb: 'commented on a step of' },
  cancel_trail: { label: 'Trail cancelled', verb: 'cancelled' },
  import_folder: { label: 'Bit imported from a folder', verb: 'imported from a folder' },
  create_group: { label: 'Group made', verb: 'made' },
  update_group: { label: 'Group renamed or described', verb: 'renamed or described' },
  delete_group: { label: 'Group removed', verb: 'removed' },
  add_group_members: { label: 'People added to a group', verb: 'added people to' },
  remove_group_member: { label: 'Person taken out of a group', verb: 'took a person out of' },
  update_person: { label: 'Person changed', verb: 'changed the name, email, permission or maximum of' },
  invite_person: { label: 'Person invited', verb: 'invited' },
  end_person_access: { label: 'Access ended', verb: 'ended every sign-in, token and connected app of' },
  set_notification_settings: { label: 'Email choices changed', verb: 'chose which notifications come to them by email', alone: true },
  sign_in: { label: 'Signed in', verb: 'signed in to the app', alone: true },
  sign_out: { label: 'Signed out', verb: 'signed out of the app', alone: true },
  grant_access: { label: 'App connected', verb: 'let an app act for them', alone: true },
  revoke_grant: { label: 'App disconnected', verb: 'disconnected an app', alone: true },
  revoke_own_token: { label: 'API key revoked', verb: 'revoked' },
  init: { label: 'Server set up', verb: 'set up the server with', alone: true },
  account_create: { label: 'Account created', verb: 'created' },
  scope_create: { label: 'Scope created (command line)', verb: 'created' },
  create_scope: { label: 'Scope created', verb: 'created' },
  token_create: { label: 'API key created', verb: 'created' },
  token_revoke: { label: 'API key revoked (command line)', verb: 'revoked' },
  signin_link_create: { label: 'Sign-in link created', verb: 'created' },
  session_revoke: { label: 'Sessions ended', verb: 'ended the sessions of' },
  create_webhook: { label: 'Webhook added', verb: 'added' },
  update_webhook: { label: 'Webhook changed', verb: 'changed' },
  delete_webhook: { label: 'Webhook removed', verb: 'removed' },
  rotate_webhook_secret: { label: "Webhook's secret rotated", verb: 'rotated the signing secret of' },
  webhook_failing: { label: 'Webhook failing', verb: 'found deliveries failing to' },
  webhook_disabled: { label: 'Webhook stopped after failures', verb: 'gave up delivering to' },
};

/** Each resource type: as a sentence names one, and as the filter names them all. */
export const RESOURCE_WORDS: Record<EventResourceType, { one: string; all: string }> = {
  bit: { one: 'the bit', all: 'Bits' },
  flow: { one: 'the flow', all: 'Flows' },
  reference: { one: 'the reference', all: 'References' },
  trail: { one: 'the trail', all: 'Trails' },
  token: { one: 'an API key', all: 'API keys' },
  grant: { one: "an app's access", all: 'Connected apps' },
  session: { one: 'a session', all: 'Sessions' },
  signin_link: { one: 'a sign-in link', all: 'Sign-in links' },
  principal: { one: 'a person', all: 'People' },
  account: { one: 'the account', all: 'The account' },
  scope: { one: 'a scope', all: 'Scopes' },
  webhook: { one: 'a webhook', all: 'Webhooks' },
  group: { one: 'a group', all: 'Groups' },
};

/** The app's page of a resource, where it has one. */
export function resourcePath(type: EventResourceType, id: string): string | null {
  if (type === 'bit') return `/bits/${encodeURIComponent(id)}`;
  if (type === 'flow') return `/flows/${encodeURIComponent(id)}`;
  if (type === 'trail') return `/trails/${encodeURIComponent(id)}`;
  // One page lists them all.
  if (type === 'webhook') return '/webhooks';
  if (type === 'group') return '/groups';
  return null;
}

export type Names = ReadonlyMap<string, People['people'][number]>;

/** `known` with the names of the principals these changes name that it lacks (one call of the people operation). */
export async function withNamesOf(events: ReadonlyArray<Pick<EventView, 'principal_id'>>, known: Names, me: Me | null): Promise<Names> {
  const missing = [...new Set(events.map((e) => e.principal_id))].filter((id): id is string => id !== null && id !== me?.principal_id && !known.has(id));
  if (missing.length === 0) return known;
  const found = await people(missing).catch(() => ({ people: [] }));
  return new Map([...known, ...found.people.map((p) => [p.principal_id, p] as const)]);
}

/** Who made a change: you, a person or agent by name, or what the event knows of them (an agent's app). */
export function whoDid(event: Pick<EventView, 'principal_id' | 'principal_kind' | 'client_name'>, names: Names, me: Me | null): string {
  if (event.principal_kind === 'operator') return "The server's operator";
  if (event.principal_id !== null && event.principal_id === me?.principal_id) return 'You';
  const known = event.principal_id === null ? undefined : names.get(event.principal_id);
  if (known) return known.kind === 'agent' ? `${known.name} (an agent)` : known.name;
  if (event.principal_kind === 'agent') return event.client_name ? `An agent (${event.client_name})` : 'An agent';
  return 'A person';
}

/** What was done, before the resource: the operation's verb, a review by its outcome. */
export function whatWasDone(event: Pick<EventView, 'operation' | 'summary'>): { verb: string; alone: boolean } {
  if (event.operation === 'review_flow') {
    const status = event.summary.review_status;
    if (status === 'approved') return { verb: 'approved', alone: false };
    if (status === 'changes_requested') return { verb: 'asked for changes to', alone: false };
    return { verb: 'set back to "review pending"', alone: false };
  }
  const words = OPERATION_WORDS[event.operation];
  return words ? { verb: words.verb, alone: words.alone === true } : { verb: `made a change (${event.operation.replace(/_/g, ' ')}) to`, alone: false };
}

/** What a restore leaves as it is (restore_revision's not_restored), in words. */
const NOT_RESTORED: Record<string, string> = {
  references: 'its reference links',
  status: 'whether it is archived',
  review_status: 'its review status',
  is_active: 'whether it is active',
};

export const notRestoredInWords = (fields: readonly string[]) => fields.map((f) => NOT_RESTORED[f] ?? f.replace(/_/g, ' ')).join(' and ');

/** A refusal in a person's words: what the server said, and what to do about it. */
export function refusalInWords(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case 'BIT_ARCHIVED':
      return 'This bit is archived, so nothing in it can change. Take the bit out of the archive first, then restore the revision.';
    case 'FORBIDDEN':
      return typeof error.details?.required_permission === 'string'
        ? `Only someone with ${error.details.required_permission} permission may do this. Ask an Admin of your account.`
        : 'Your sign-in does not allow this change. Ask an Admin for a sign-in that may edit content.';
    case 'REVISION_NOT_FOUND':
      return 'That revision does not exist (any more). Reload the page to see the revisions as they are now.';
    case 'FLOW_START_BIT_INVALID':
      return "That revision's start bit is archived or gone, so the flow cannot go back to it.";
    case 'UNAUTHENTICATED':
      return 'You are signed out. Sign in again, then try once more.';
    default:
      return error.code.endsWith('_NOT_FOUND') ? 'Not found: it does not exist, or it is not yours to see.' : `The server refused: ${error.message}`;
  }
}
