/**
 * The one JSON shape the step form is fed: `GET /api/v1/trails/:id/step` (the trail's current step as the
 * trail tools show it, with the snapshot's Slate body, and what the caller may do). Nothing else reaches the
 * form, so it can run wherever that JSON can be handed over (this app, or a chat client later).
 */
import type { BlockNode, ConnectionCondition, SlateBody } from '../../src/content/slate.js';

export interface StepElementPayload {
  element_id: string;
  type: string;
  /** The step type name answers carry (TextArea, …); null for an iframe; each check-list item is a CheckListItem. */
  element_type: string | null;
  /** The element's props as the bit stores them: the only source of its rules. */
  config: Record<string, unknown>;
  items?: Array<{ id: string; [field: string]: unknown }>;
  required: boolean;
}

export interface AnswerPayload {
  element_id: string;
  element_type: string;
  value: unknown;
  warnings: string[];
  answered_by: string;
  answered_date_time_utc: string;
}

export interface ConnectionChoice {
  connection_id: string;
  target_bit_id: string;
  target_bit_title: string;
  label: string | null;
  condition: ConnectionCondition | null;
}

export interface ReferenceLinkPayload {
  reference_id: string;
  label: string;
  position: number;
}

export interface StepView {
  step_id: string;
  seq: number;
  bit_id: string;
  bit_title: string;
  bit_abstract: string | null;
  /** The snapshot's Slate body (as get_bit format "slate": the node array, or the stored object). */
  body: SlateBody | BlockNode[];
  human_required: boolean;
  elements: StepElementPayload[];
  references: ReferenceLinkPayload[];
  answers: AnswerPayload[];
  required_missing: string[];
  connections_available: ConnectionChoice[];
  waiting_for_person: boolean;
  transfer_reason: string | null;
}

export interface StepPayload {
  trail: { trail_id: string; trail_title: string | null; flow_id: string; flow_title: string; status: string; trail_context: Record<string, unknown> };
  /** Null once the trail is completed or cancelled. */
  step: StepView | null;
  /** What this session may do on the step (the same access checks as the tools). */
  may: { answer: boolean; advance: boolean; transfer: boolean; cancel: boolean };
}

export function bodyOf(step: Pick<StepView, 'body'>): SlateBody {
  return Array.isArray(step.body) ? { children: step.body } : step.body;
}

/** One answer as submit_step_data takes it (the inner value; the API wraps it as `{value}`). */
export interface AnswerInput {
  element_id: string;
  element_type: string;
  value: unknown;
}

/** A refusal as the API answers it: the tools' error envelope. */
export interface StepError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** What the host gives the form: saving answers returns the step as it now stands; advancing leaves it. */
export interface StepActions {
  save(answers: AnswerInput[]): Promise<StepPayload>;
  advance(connectionId: string | undefined): Promise<void>;
}
