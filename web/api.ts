/**
 * The app's one door to the server: REST under /api/v1 (APP-API: the tools' envelope and error codes),
 * the session cookie sent by the browser, and the CSRF token /me hands out on every state-changing call.
 */
import { submittedData, type AnswerInput, type StepError, type StepPayload } from './step-form/payload.js';
import type { ErrorBody } from '../src/errors.js';
import type { Me } from '../src/services/auth/shapes.js';
import type { BitView } from '../src/services/bits/shapes.js';
import type { FlowView, FlowWithGraph } from '../src/services/flows/shapes.js';
import type { Inbox } from '../src/services/trails/inbox-shapes.js';
import type { ReferenceSearchPage } from '../src/services/references/shapes.js';
import type { TrailPeople, TrailProgress, TrailView } from '../src/services/trails/shapes.js';

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

type Query = Record<string, string | number | boolean | undefined>;

function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, retried = false): Promise<T> {
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

export const inbox = (q: { flow_id?: string; status?: string; limit?: number; cursor?: string }) => call<Inbox>('GET', withQuery('/inbox', q));

export type { HistoryEntry, TrailView } from '../src/services/trails/shapes.js';

export const trail = (id: string) => call<TrailView>('GET', `/trails/${encodeURIComponent(id)}`);
export const trailPeople = (id: string) => call<TrailPeople>('GET', `/trails/${encodeURIComponent(id)}/people`);
export const step = (trailId: string) => call<StepPayload>('GET', `/trails/${encodeURIComponent(trailId)}/step`);
/** Save: the answers recorded and the step as it now stands, in one call (save_step). */
export const saveStep = (trailId: string, answers: AnswerInput[]) => call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/answers`, { data: submittedData(answers) });
/** Continue: the step left and the form of the one now current, in one call (advance_step). */
export const advanceStep = (trailId: string, connectionId?: string) =>
  call<StepPayload>('POST', `/trails/${encodeURIComponent(trailId)}/step/advance`, connectionId ? { connection_id: connectionId } : {});
export const transfer = (trailId: string, reason: string) => call<TrailProgress>('POST', `/trails/${encodeURIComponent(trailId)}/transfer`, { reason });
export const cancel = (trailId: string, reason?: string) => call<TrailProgress>('POST', `/trails/${encodeURIComponent(trailId)}/cancel`, reason ? { reason } : {});
export const startTrail = (flowId: string, trailContext: Record<string, unknown>, trailTitle?: string) =>
  call<TrailView>('POST', '/trails', { flow_id: flowId, trail_context: trailContext, ...(trailTitle ? { trail_title: trailTitle } : {}) });

export type { FlowView, FlowWithGraph, GraphBit } from '../src/services/flows/shapes.js';

export const flows = (q: { cursor?: string; is_active?: boolean } = {}) => call<{ flows: FlowView[]; next_cursor: string | null }>('GET', withQuery('/flows', { limit: 100, ...q }));
export const flow = (id: string) => call<FlowWithGraph>('GET', withQuery(`/flows/${encodeURIComponent(id)}`, { include_graph: true, format: 'mermaid' }));

export const bit = (id: string) => call<BitView>('GET', withQuery(`/bits/${encodeURIComponent(id)}`, { format: 'slate' }));

export type { ReferenceHit } from '../src/services/references/shapes.js';

export const searchReferences = (query: string, cursor?: string) => call<ReferenceSearchPage>('GET', withQuery('/references/search', { query, cursor, limit: 20 }));
