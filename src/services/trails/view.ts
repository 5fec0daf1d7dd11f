/**
 * What every trail tool answers, built from the store's rows: the trail, its current step (the step payload of
 * CONTRACT.md, "Tools beyond the interface document": the bit's title, body as markdown, elements with config,
 * complexity, human_required, linked references, the answers so far and the connections available now) and its
 * history. The shapes are services/trail-shapes.ts's.
 */
import type { Selectable } from 'kysely';
import type { TrailAnswerTable, TrailTable } from '../../store/schema.js';
import type { StepRow, TrailEvent } from '../../store/repositories/trails.repo.js';
import { missingRequired, stepElements, type BitSnapshot, type LatestAnswer } from './step.js';
import { openConnections } from './conditions.js';
import type { AnswerView, AvailableConnection, HistoryEntry, StepAssigneeView, StepView, TrailView, TransferView } from './shapes.js';

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

/** Connections of the snapshot whose target is still an active bit (or part of the trail's approved version), with its title. */
export function enterableConnections(snapshot: BitSnapshot, liveTargets: Map<string, { title: string; status: string }>): AvailableConnection[] {
  const out: AvailableConnection[] = [];
  for (const c of snapshot.connections) {
    const target = liveTargets.get(c.target_bit_id);
    if (!target || target.status !== 'active') continue;
    out.push({ connection_id: c.connection_id, target_bit_id: c.target_bit_id, target_bit_title: target.title, label: c.label, condition: c.condition });
  }
  return out;
}

/** Connections of the snapshot whose condition holds (conditions.ts) and whose target is still an active bit. */
export function availableConnections(snapshot: BitSnapshot, latest: Map<string, LatestAnswer>, liveTargets: Map<string, { title: string; status: string }>): AvailableConnection[] {
  return openConnections(enterableConnections(snapshot, liveTargets), latest);
}

export interface StepState {
  step: StepRow;
  snapshot: BitSnapshot;
  answers: AnswerView[];
}

/** The current step but its body, which each reader takes in its own form (markdown or the snapshot's Slate). */
export type StepCore = Omit<StepView, 'bit_body' | 'content_format'>;
/** The trail with its current step but the step's body. */
export type TrailCore = Omit<TrailView, 'current_step'> & { current_step: StepCore | null };

/** How a reader takes the current step's body: an agent as markdown (the trail tools), a person's step form as Slate. */
export type BodyReader = 'markdown' | 'slate';

/**
 * A trail as an operation read it, for the reader it named: with the current step's body as markdown for an
 * agent, without it for the step form, which takes the body from the snapshot kept here (parsed once per call).
 */
export interface TrailRead<R extends BodyReader = BodyReader> {
  trail: R extends 'markdown' ? TrailView : TrailCore;
  /** The current step's snapshot; null once the trail ended. */
  snapshot: BitSnapshot | null;
  /** The targets of the current step's connections as the trail may enter them (trails.service targetsOf); empty once it ended. */
  targets?: Map<string, { title: string; status: string }>;
}

/** The trail as the trail tools show it: the current step's body as markdown (get_bit's, printed from the snapshot). */
export function inMarkdown(trail: TrailCore, bodyMarkdown: string): TrailView {
  if (!trail.current_step) return { ...trail, current_step: null };
  // The body right after the abstract, where get_trail has always shown it.
  const { step_id, seq, bit_id, bit_title, bit_abstract, ...rest } = trail.current_step;
  return { ...trail, current_step: { step_id, seq, bit_id, bit_title, bit_abstract, bit_body: bodyMarkdown, content_format: 'markdown', ...rest } };
}

/** A step without its printed body: a markdown reader's step has one, the step form shows the snapshot's. */
export function withoutBody(step: StepCore | StepView): StepCore {
  if (!('bit_body' in step)) return step;
  const { bit_body: _body, content_format: _format, ...core } = step;
  return core;
}

/** Who the current step waits for and by when (trails/assignment.ts), as read with the trail. */
export interface StepWaiting {
  assignee: StepAssigneeView | null;
  due_date_time_utc: string | null;
  overdue: boolean;
  waiting_for: string | null;
}

export function stepCore(state: StepState, status: TrailTable['status'], liveTargets: Map<string, { title: string; status: string }>, events: TrailEvent[], waiting: StepWaiting): StepCore {
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
    complexity: snapshot.complexity,
    human_required: snapshot.human_required,
    elements,
    references: snapshot.references,
    answers: [...latest.values()],
    required_missing: missingRequired(elements, latest).map((m) => m.element_id),
    connections_available: availableConnections(snapshot, latest, liveTargets),
    waiting_for_person: status === 'waiting_for_person',
    transfer_reason: transfers.at(-1)?.reason ?? null,
    entered_date_time_utc: step.entered_at,
    bit_revision: step.bit_revision === null ? null : Number(step.bit_revision),
    ...waiting,
  };
}

/** Whether a due time has passed, for an open trail (a closed one is overdue for nothing). */
export function isOverdue(due: string | null, status: TrailTable['status'], now: string): boolean {
  return due !== null && (status === 'running' || status === 'waiting_for_person') && due < now;
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
    bit_revision: step.bit_revision === null ? null : Number(step.bit_revision),
    entered_date_time_utc: step.entered_at,
    left_date_time_utc: step.left_at,
    left_by: step.left_by,
    left_by_connection_id: step.left_by_connection_id,
    transfers: transfersOf(events),
    cancellation: cancel ? { reason: cancel.reason, cancelled_by: cancel.principal_id, cancelled_date_time_utc: cancel.at } : null,
    answers,
  };
}
