/**
 * What every trail tool answers: the trail, its current step (the step payload of CONTRACT.md, "Tools
 * beyond the interface document": the bit's title, body as markdown, elements with config, complexity,
 * human_required, linked references, the answers so far and the connections available now) and its history.
 */
import type { Selectable } from 'kysely';
import type { TrailAnswerTable, TrailTable } from '../store/schema.js';
import type { BitReferenceLinkView } from '../store/repositories/links.repo.js';
import type { ConnectionCondition } from '../content/slate.js';
import { stepBodyMarkdown } from './step-body.js';
import type { StepRow, TrailEvent } from '../store/repositories/trails.repo.js';
import { conditionHolds, missingRequired, stepElements, type BitSnapshot, type LatestAnswer, type StepElement } from './trail-step.js';

export interface AnswerView {
  element_id: string;
  element_type: string;
  value: unknown;
  warnings: string[];
  answered_by: string;
  answered_date_time_utc: string;
}

export interface AvailableConnection {
  connection_id: string;
  target_bit_id: string;
  target_bit_title: string;
  label: string | null;
  condition: ConnectionCondition | null;
}

export interface StepView {
  step_id: string;
  seq: number;
  bit_id: string;
  bit_title: string;
  bit_abstract: string | null;
  bit_body: string;
  content_format: 'markdown';
  complexity: string;
  human_required: boolean;
  elements: StepElement[];
  references: BitReferenceLinkView[];
  /** The answer that counts for each element (the latest), in the order first answered. */
  answers: AnswerView[];
  /** Required element ids (check-list items by their own id) still without a counting answer. */
  required_missing: string[];
  connections_available: AvailableConnection[];
  waiting_for_person: boolean;
  transfer_reason: string | null;
  entered_date_time_utc: string;
}

export interface TransferView {
  reason: string;
  /** Null only for a transfer made before the store recorded who made it. */
  transferred_by: string | null;
  transferred_date_time_utc: string;
}

export interface CancellationView {
  reason: string | null;
  cancelled_by: string | null;
  cancelled_date_time_utc: string;
}

export interface HistoryEntry {
  step_id: string;
  seq: number;
  bit_id: string;
  bit_title: string;
  entered_date_time_utc: string;
  left_date_time_utc: string | null;
  left_by: string | null;
  left_by_connection_id: string | null;
  /** Every hand-over of the step to a person (transfer_step), oldest first. */
  transfers: TransferView[];
  /** Set on the step the trail was on when cancel_trail ended it (the step is left then, by the same principal). */
  cancellation: CancellationView | null;
  /** Every answer given on the step, replaced ones included, oldest first. */
  answers: AnswerView[];
}

export interface TrailView {
  trail_id: string;
  flow_id: string;
  trail_title: string | null;
  status: TrailTable['status'];
  trail_context: Record<string, unknown>;
  started_by: string;
  started_date_time_utc: string;
  last_modified_date_time_utc: string;
  current_step: StepView | null;
  history: HistoryEntry[];
}

export interface TrailSummary {
  trail_id: string;
  flow_id: string;
  trail_title: string | null;
  status: TrailTable['status'];
  current_bit_id: string | null;
  current_bit_title: string | null;
  started_by: string;
  started_date_time_utc: string;
  last_modified_date_time_utc: string;
}

type Parse = <T>(raw: unknown) => T;

export function answerView(row: Selectable<TrailAnswerTable>, parse: Parse): AnswerView {
  return {
    element_id: row.element_id,
    element_type: row.element_type,
    value: parse<{ value: unknown }>(row.value).value,
    warnings: row.warnings === null ? [] : parse<string[]>(row.warnings),
    answered_by: row.answered_by,
    answered_date_time_utc: row.answered_at,
  };
}

/** The latest answer per element: the one that counts (answers are kept oldest first). */
export function latestAnswers(answers: AnswerView[]): Map<string, AnswerView & LatestAnswer> {
  const latest = new Map<string, AnswerView>();
  for (const answer of answers) {
    latest.delete(answer.element_id);
    latest.set(answer.element_id, answer);
  }
  return latest;
}

/** Connections of the snapshot whose `when` holds and whose target is still an active bit. */
export function availableConnections(snapshot: BitSnapshot, latest: Map<string, LatestAnswer>, liveTargets: Map<string, { title: string; status: string }>): AvailableConnection[] {
  const out: AvailableConnection[] = [];
  for (const c of snapshot.connections) {
    const target = liveTargets.get(c.target_bit_id);
    if (!target || target.status !== 'active' || !conditionHolds(c.when, latest)) continue;
    out.push({ connection_id: c.connection_id, target_bit_id: c.target_bit_id, target_bit_title: target.title, label: c.label, condition: c.when });
  }
  return out;
}

export interface StepState {
  step: StepRow;
  snapshot: BitSnapshot;
  answers: AnswerView[];
}

export function stepView(state: StepState, status: TrailTable['status'], liveTargets: Map<string, { title: string; status: string }>, events: TrailEvent[]): StepView {
  const { step, snapshot } = state;
  const transfers = transfersOf(events);
  const elements = stepElements(snapshot.body);
  const latest = latestAnswers(state.answers);
  return {
    step_id: step.id,
    seq: step.seq,
    bit_id: snapshot.bit_id,
    bit_title: snapshot.title,
    bit_abstract: snapshot.abstract,
    bit_body: stepBodyMarkdown(snapshot.body),
    content_format: 'markdown',
    complexity: snapshot.complexity,
    human_required: snapshot.human_required,
    elements,
    references: snapshot.references,
    answers: [...latest.values()],
    required_missing: missingRequired(elements, latest),
    connections_available: availableConnections(snapshot, latest, liveTargets),
    waiting_for_person: status === 'waiting_for_person',
    transfer_reason: transfers.at(-1)?.reason ?? null,
    entered_date_time_utc: step.entered_at,
  };
}

function transfersOf(events: TrailEvent[]): TransferView[] {
  return events.filter((e) => e.kind === 'transfer').map((e) => ({ reason: e.reason ?? '', transferred_by: e.principal_id, transferred_date_time_utc: e.at }));
}

/** A step's history: `events` are the step's own (transfers, a cancellation), oldest first. */
export function historyEntry(step: StepRow, bitTitle: string, answers: AnswerView[], events: TrailEvent[]): HistoryEntry {
  const cancel = events.find((e) => e.kind === 'cancel');
  return {
    step_id: step.id,
    seq: step.seq,
    bit_id: step.bit_id,
    bit_title: bitTitle,
    entered_date_time_utc: step.entered_at,
    left_date_time_utc: step.left_at,
    left_by: step.left_by,
    left_by_connection_id: step.left_by_connection_id,
    transfers: transfersOf(events),
    cancellation: cancel ? { reason: cancel.reason, cancelled_by: cancel.principal_id, cancelled_date_time_utc: cancel.at } : null,
    answers,
  };
}
