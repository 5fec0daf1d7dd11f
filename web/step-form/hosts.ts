/**
 * The step form's two hosts, as the StepActions it is given: the web app answers through the /api/v1 routes
 * (fetch, the session cookie), the MCP App through Waymark's tools called by the chat client on its behalf
 * (callServerTool). Both reach the same service calls, so every answer passes the same checks.
 */
import * as api from '../api.js';
import { STEP_PAYLOAD_META_KEY } from '../../src/operations/platform/step-meta.js';
import { submittedData, type StepActions, type StepError, type StepPayload } from './payload.js';
import type { TrailPeople, TrailView } from '../api.js';
import type { MovedOn } from './stale.js';

/** What the form's host does once the trail moved on (advanced, handed over), and how it reads the step again. */
export interface HostEvents {
  moved(after: { payload?: StepPayload; currentStep: { bit_title: string } | null }): void;
  reload?(): void;
}

/** The web app: REST under /api/v1, the step form's own operations, each answering the step payload. */
export function apiStepActions(trailId: string, events: HostEvents): StepActions {
  return {
    save: (answers, stepId) => api.saveStep(trailId, answers, stepId),
    async advance(connectionId, stepId) {
      const payload = await api.advanceStep(trailId, connectionId, stepId);
      events.moved({ payload, currentStep: payload.step });
    },
    async movedOn(stepId) {
      const [trail, people] = await Promise.all([api.trail(trailId), api.trailPeople(trailId)]);
      return movedOnFrom(trail, people, stepId);
    },
    ...(events.reload ? { reload: events.reload } : {}),
  };
}

/** What became of step `stepId`, from the trail's history: who left it (or cancelled the trail) and where the trail is now. */
export function movedOnFrom(trail: Pick<TrailView, 'status' | 'current_step' | 'history'>, people: Pick<TrailPeople, 'people'>, stepId: string): MovedOn | null {
  const left = trail.history.find((h) => h.step_id === stepId);
  if (!left || left.left_date_time_utc === null) return null;
  const by = left.cancellation?.cancelled_by ?? left.left_by;
  const name = people.people.find((p) => p.principal_id === by)?.name ?? null;
  const to: MovedOn['to'] = trail.current_step ? { step: trail.current_step.bit_title } : { ended: trail.status === 'cancelled' ? 'cancelled' : 'completed' };
  return { by: name, at: left.cancellation?.cancelled_date_time_utc ?? left.left_date_time_utc, to };
}

/** A tool result as the host hands it over (ext-apps' callServerTool, or the tool-result notification). */
export interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

export type CallTool = (name: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** The tools' envelope: the data on success, else the refusal thrown as the form's StepError. */
function dataOf(result: ToolResult): Record<string, unknown> {
  const envelope = result.structuredContent as { success?: boolean; data?: Record<string, unknown>; error?: StepError } | undefined;
  if (result.isError || envelope?.success !== true) throw envelope?.error ?? { code: 'INTERNAL_ERROR', message: 'The server gave no answer the form can read.' };
  return envelope.data ?? {};
}

/** The step payload a trail tool's result carries for the app (null when the result has none). */
export function payloadOf(result: ToolResult): StepPayload | null {
  dataOf(result);
  return (result._meta?.[STEP_PAYLOAD_META_KEY] as StepPayload | undefined) ?? null;
}

async function payloadCall(call: CallTool, name: string, args: Record<string, unknown>): Promise<StepPayload> {
  const payload = payloadOf(await call(name, args));
  if (!payload) throw { code: 'INTERNAL_ERROR', message: `${name} answered without the step payload.` } satisfies StepError;
  return payload;
}

/** The MCP App: submit_step_data, get_trail, advance_trail and transfer_step through the host. */
export function toolStepActions(call: CallTool, trailId: string, events: HostEvents): StepActions & { transfer(reason: string): Promise<void> } {
  return {
    // submit_step_data takes no expected_step_id: a step left meanwhile refuses the answers as none of its elements.
    async save(answers) {
      dataOf(await call('submit_step_data', { trail_id: trailId, data: submittedData(answers) }));
      return payloadCall(call, 'get_trail', { trail_id: trailId });
    },
    async advance(connectionId, stepId) {
      const payload = await payloadCall(call, 'advance_trail', { trail_id: trailId, expected_step_id: stepId, ...(connectionId ? { connection_id: connectionId } : {}) });
      events.moved({ payload, currentStep: payload.step });
    },
    async transfer(reason) {
      const payload = await payloadCall(call, 'transfer_step', { trail_id: trailId, reason });
      events.moved({ payload, currentStep: payload.step });
    },
    // get_trail's history says when the step was left and where the trail is; names are not a tool's to give.
    async movedOn(stepId) {
      return movedOnFrom(dataOf(await call('get_trail', { trail_id: trailId })) as unknown as TrailView, { people: [] }, stepId);
    },
    ...(events.reload ? { reload: events.reload } : {}),
  };
}
