/**
 * The app's one door to the server: REST under /api/v1 (APP-API: the tools' envelope and error codes),
 * the session cookie sent by the browser, and the CSRF token /me hands out on every state-changing call.
 */
import { submittedData, type AnswerInput, type StepError, type StepPayload } from './step-form/payload.js';
import type { ErrorBody } from '../src/errors.js';
import type { Me } from '../src/services/auth/shapes.js';
import type { BitSummary, BitView } from '../src/services/bits/shapes.js';
import type { FlowView, FlowWithGraph } from '../src/services/flows/shapes.js';
import type { Inbox } from '../src/services/trails/inbox-shapes.js';
import type { FlowReport, TrailSearchInput, TrailSearchPage } from '../src/services/trails/trail-search-shapes.js';
import type { ReferenceSearchPage } from '../src/services/references/shapes.js';
import type { TrailPeople, TrailProgress, TrailView } from '../src/services/trails/shapes.js';
import type { CommentPage, CommentView } from '../src/services/trails/comment-shapes.js';
import type { CommentedTrailView } from '../src/services/trails/commented-trail.js';
import type { AccessEnded, Directory, Invitation, People, PersonView, ScopeList, ScopeView } from '../src/services/auth/shapes.js';
import type { GroupList, GroupWithMembers } from '../src/services/groups/shapes.js';
import type { HistoryPage } from '../src/services/events/shapes.js';
import type { RestoredRevision, RevisionDiff } from '../src/services/revisions/shapes.js';
import type { DeliveryPage, DeliveryView, WebhookView, WebhookWithSecret } from '../src/services/webhooks/shapes.js';
import type { RevisedType } from '../src/services/revisions/state.js';
import type { EventResourceType, ReviewStatus } from '../src/store/enums.js';

export type { Me } from '../src/services/auth/shapes.js';
export type { BitView } from '../src/services/bits/shapes.js';

export class ApiError extends Error implements StepError {
  constructor(
    readonly code: ErrorBody['code'],
    message: string,
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

/** What to do when the server says the session is gone (401). */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

type Query = Record<string, string | number | boolean | string[] | undefined>;

/** A query string; an array repeats its key (the REST door reads repeated keys as an array). */
export function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else if (v !== undefined && v !== '') params.set(k, String(v));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, retried = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`/api/v1${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const json = (await res.json().catch(() => null)) as { success?: boolean; data?: T; error?: ErrorBody } | null;
  if (res.status === 401) {
    onSignedOut();
    throw new ApiError('UNAUTHENTICATED', 'You are signed out.', 401);
  }
  const error = json?.error;
  // A CSRF token goes stale when the session changes: fetch a fresh one once and try again.
  if (res.status === 403 && error?.details?.reason === 'csrf' && !retried) {
    await me();
    return call(method, path, body, true);
  }
  if (!json || json.success !== true) {
    throw new ApiError(error?.code ?? 'INTERNAL_ERROR', error?.message ?? `The server answered ${res.status}.`, res.status, error?.details);
  }
  return json.data as T;
}

export async function me(): Promise<Me> {
  const data = await call<Me>('GET', '/me');
  csrfToken = data.csrf_token;
  return data;
}

export const signOut = () => call<{ signed_out: true }>('POST', '/signout', {});

export type { InboxItem, Inbox as InboxPage } from '../src/services/trails/inbox-shapes.js';

export const inbox = (q: { flow_id?: string; status?: string; view?: 'mine' | 'groups' | 'everyone'; sort?: 'updated' | 'due'; overdue?: boolean; limit?: number; cursor?: string }) =>
  call<Inbox>('GET', withQuery('/inbox', q));

export type { HistoryEntry, TrailView } from '../src/services/trails/shapes.js';

/** get_trail: the trail with its current step's newest comments and each step's comment count. */
export const trail = (id: string) => call<CommentedTrailView>('GET', `/trails/${encodeURIComponent(id)}`);
export type { CommentView } from '../src/services/trails/comment-shapes.js';
/** comment_on_step: the comment kept on the step named (default: the current or last one); answers whom it mentioned. */
export const commentOnStep = (trailId: string, text: string, stepId?: string) =>
  call<Pick<CommentView, 'mentions'>>('POST', `/trails/${encodeURIComponent(trailId)}/comments`, { text, ...(stepId ? { step_id: stepId } : {}) });
/** A page of a trail's comments (or one step's), oldest first (trail_comments). */
export const trailComments = (trailId: string, q: { step_id?: string; cursor?: string; limit?: number } = {}) =>
  call<CommentPage>('GET', withQuery(`/trails/${encodeURIComponent(trailId)}/comments`, q));
export type { TrailPeople, AnswerView } from '../src/services/trails/shapes.js';
export const trailPeople = (id: string) => call<TrailPeople>('GET', `/trails/${encodeURIComponent(id)}/people`);
export const step = (trailId: string) => call<StepPayload>('GET', `/trails/${encodeURIComponent(trailId)}/step`);
/** Save: the answers recorded and the step as it now stands, in one call (save_step). */
export const saveStep = (trailId: string, answers: AnswerInput[], stepId?: string) =>
  call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/answers`, { data: submittedData(answers), ...(stepId ? { expected_step_id: stepId } : {}) });
/** Continue: the step left and the form of the one now current, in one call (advance_step); refused when the trail left `stepId` meanwhile. */
export const advanceStep = (trailId: string, connectionId?: string, stepId?: string) =>
  call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/advance`, { ...(connectionId ? { connection_id: connectionId } : {}), ...(stepId ? { expected_step_id: stepId } : {}) });
/** Take the step, give it back, or (an Admin) hand it to a person, a group or nobody: each answers the step's form. */
export const claimStep = (trailId: string) => call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/claim`, {});
export const releaseStep = (trailId: string) => call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/release`, {});
export const assignStep = (trailId: string, to: string | null) => call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/assign`, { to });
export const transfer = (trailId: string, reason: string) => call<TrailProgress>('POST', `/trails/${encodeURIComponent(trailId)}/transfer`, { reason });
export const cancel = (trailId: string, reason?: string) => call<TrailProgress>('POST', `/trails/${encodeURIComponent(trailId)}/cancel`, reason ? { reason } : {});
export const startTrail = (flowId: string, trailContext: Record<string, unknown>, trailTitle?: string) =>
  call<TrailView>('POST', '/trails', { flow_id: flowId, trail_context: trailContext, ...(trailTitle ? { trail_title: trailTitle } : {}) });

export type { FlowView, FlowWithGraph, GraphBit } from '../src/services/flows/shapes.js';

export const flows = (q: { cursor?: string; is_active?: boolean } = {}) => call<{ flows: FlowView[]; next_cursor: string | null }>('GET', withQuery('/flows', { limit: 100, ...q }));
export const flow = (id: string) => call<FlowWithGraph>('GET', withQuery(`/flows/${encodeURIComponent(id)}`, { include_graph: true }));

export type { BitSummary } from '../src/services/bits/shapes.js';

/** The bits this person can see, without bodies, most recently changed first (list_bits). */
export const bits = (q: { status?: 'active' | 'archived' | 'any'; cursor?: string; limit?: number } = {}) =>
  call<{ bits: BitSummary[]; next_cursor: string | null }>('GET', withQuery('/bits', { limit: 100, ...q }));

export const bit = (id: string) => call<BitView>('GET', withQuery(`/bits/${encodeURIComponent(id)}`, { format: 'slate' }));

export type { ReferenceHit } from '../src/services/references/shapes.js';

export const searchReferences = (query: string, cursor?: string) => call<ReferenceSearchPage>('GET', withQuery('/references/search', { query, cursor, limit: 20 }));

export type { People } from '../src/services/auth/shapes.js';
export type { EventView, HistoryPage } from '../src/services/events/shapes.js';
export type { BitChanges, FlowBitChange, RestoredRevision, RevisionDiff } from '../src/services/revisions/shapes.js';

/** The principals of a page of changes, by name (list_history names them by id). */
export const people = (principalIds: string[]) => call<People>('GET', withQuery('/people', { principal_ids: principalIds }));

export interface HistoryQuery {
  resource_type?: EventResourceType;
  resource_id?: string;
  principal_id?: string;
  operation?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: number;
}
/** The changes this person may see, newest first (list_history). */
export const history = (q: HistoryQuery) => call<HistoryPage>('GET', withQuery('/history', { ...q }));

/** A bit, flow or reference: what keeps revisions. */
export type Revised = RevisedType;
const revisedPath = (type: Revised, id: string) => `/history/${type}/${encodeURIComponent(id)}`;
/** What changed between two revisions; a flow without `from`, since its approved version (diff_revisions). */
export const diffRevisions = (type: Revised, id: string, range: { from?: number; to?: number } = {}) => call<RevisionDiff>('GET', withQuery(`${revisedPath(type, id)}/diff`, range));
export const restoreRevision = (type: Revised, id: string, revision: number) => call<RestoredRevision>('POST', `${revisedPath(type, id)}/revisions/${revision}/restore`, {});

/** Switches a flow on or off (update_flow). */
export const setFlowActive = (flowId: string, isActive: boolean) => call<{ flow_id: string }>('POST', `/flows/${encodeURIComponent(flowId)}`, { is_active: isActive });

/** The sample flow's folder and, once added, its id in the person's account and scope (get_sample_flow). */
export const sampleFlow = () => call<{ files: Array<{ path: string; content: string }>; flow_id: string | null }>('GET', '/sample-flow');
/** Imports a folder's files (import_folder). */
export const importFolder = (files: Array<{ path: string; content: string }>, scopeId: string | null) => call<{ changed: boolean }>('POST', '/import', { files, scope_id: scopeId });

export const reviewFlow = (flowId: string, reviewStatus: ReviewStatus) =>
  call<{ flow_id: string; review_status: ReviewStatus; is_active: boolean }>('POST', `/flows/${encodeURIComponent(flowId)}/review`, { review_status: reviewStatus });

export type { DeliveryPage, DeliveryView, WebhookView, WebhookWithSecret } from '../src/services/webhooks/shapes.js';

const hook = (id: string) => `/webhooks/${encodeURIComponent(id)}`;
/** The webhook subscriptions this person may see, with their health; never a secret (list_webhooks). */
export const webhooks = () => call<{ webhooks: WebhookView[] }>('GET', '/webhooks');
/** A new subscription and its signing secret, answered this once (create_webhook). */
export const createWebhook = (input: { url: string; event_types: string[]; description?: string }) => call<WebhookWithSecret>('POST', '/webhooks', input);
/** Its URL, types or description; `disabled` stops it, `active` resumes it from the event it stopped at (update_webhook). */
export const updateWebhook = (id: string, change: { url?: string; event_types?: string[]; description?: string | null; status?: 'active' | 'disabled' }) =>
  call<WebhookView>('POST', hook(id), change);
export const deleteWebhook = (id: string) => call<{ webhook_id: string; removed: true }>('DELETE', hook(id));
/** A new secret, answered this once; the old one signs beside it for `overlap_hours` (rotate_webhook_secret). */
export const rotateWebhookSecret = (id: string, overlapHours: number) => call<WebhookWithSecret>('POST', `${hook(id)}/rotate`, { overlap_hours: overlapHours });
export const webhookDeliveries = (id: string, q: { cursor?: string; limit?: number } = {}) => call<DeliveryPage>('GET', withQuery(`${hook(id)}/deliveries`, q));
export const redeliverWebhook = (id: string, deliveryId: string) => call<DeliveryView>('POST', `${hook(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {});
export const sendTestWebhook = (id: string) => call<DeliveryView>('POST', `${hook(id)}/test`, {});

export type { GroupView, GroupWithMembers } from '../src/services/groups/shapes.js';
export type { Directory, PersonView } from '../src/services/auth/shapes.js';

const groupPath = (id: string) => `/groups/${encodeURIComponent(id)}`;
/** The account's groups of people, with member counts (list_groups). */
export const groups = () => call<GroupList>('GET', '/groups');
export const group = (id: string) => call<GroupWithMembers>('GET', groupPath(id));
export const createGroup = (input: { name: string; description?: string | null }) => call<GroupWithMembers>('POST', '/groups', input);
export const updateGroup = (id: string, change: { name?: string; description?: string | null }) => call<GroupWithMembers>('POST', groupPath(id), change);
export const deleteGroup = (id: string) => call<{ group_id: string; removed: true }>('DELETE', groupPath(id));
export const addGroupMembers = (id: string, people: string[]) => call<GroupWithMembers>('POST', `${groupPath(id)}/members`, { people });
export const removeGroupMember = (id: string, principalId: string) => call<GroupWithMembers>('DELETE', `${groupPath(id)}/members/${encodeURIComponent(principalId)}`);
/** Everyone of the account this person may see, with emails for an Admin (people without ids). */
export const directory = () => call<Directory>('GET', '/people');
export const updatePerson = (principalId: string, change: { name?: string; email?: string | null; permission?: string; scope_id?: string | null; max_capabilities?: string[] }) =>
  call<PersonView>('POST', `/people/${encodeURIComponent(principalId)}`, change);
export type { AccessEnded, Invitation } from '../src/services/auth/shapes.js';
/** A new person and their one-time sign-in link, unless it went by mail (invite_person). */
export const invitePerson = (input: { name: string; email: string; permission: string; scope_id?: string | null; max_capabilities: string[] }) => call<Invitation>('POST', '/people', input);
export type { ScopeView } from '../src/services/auth/shapes.js';
/** The scopes this person may see, by name (list_scopes). */
export const scopes = () => call<ScopeList>('GET', '/scopes');
/** A new scope of the account (create_scope): an Admin of the whole account. */
export const createScope = (name: string) => call<ScopeView>('POST', '/scopes', { name });
/** Ends every sign-in, link, key and connected app of the person (end_person_access). */
export const endPersonAccess = (principalId: string) => call<AccessEnded>('POST', `/people/${encodeURIComponent(principalId)}/end-access`, {});
export type { FlowReport, FoundTrail, StepTime, TrailSearchPage } from '../src/services/trails/trail-search-shapes.js';

/** The Trails page's filters (search_trails, export_trails). */
export type TrailSearchQuery = TrailSearchInput;
/** Every trail this person may see under the filters, newest change first (search_trails). */
export const searchTrails = (q: TrailSearchQuery) => call<TrailSearchPage>('GET', withQuery('/trails/search', { ...q }));
/** The address of the same trails as a CSV download (export_trails): the browser fetches it with the session. */
export const trailsCsvHref = (q: Omit<TrailSearchQuery, 'cursor' | 'limit'>) => `/api/v1${withQuery('/trails/export', { ...q })}`;
/** A flow's trails by status and the time spent in each step (flow_report). */
export const flowReport = (flowId: string) => call<FlowReport>('GET', `/flows/${encodeURIComponent(flowId)}/report`);
