/**
 * Trails: runs of a flow (CONTRACT.md, "Tools beyond the interface document": start_trail, get_trail,
 * list_trails, submit_step_data, advance_trail, transfer_step, cancel_trail). Each write locks the trail's row, so two
 * callers moving the same trail take turns; every step keeps the bit as it was entered.
 */
import { createHash, randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { issuesError, validationError, WaymarkError } from '../../errors.js';
import { answeredByItems, choiceList, textLongerThan } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { assertAnswerSizes, assertContextSize } from './bounds.js';
import { findBit, findBitHeads } from '../../store/repositories/bits.repo.js';
import { connectionsFrom } from '../../store/repositories/connections.repo.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { accountWide } from '../../store/visibility.js';
import { listLinksForBit } from '../../store/repositories/links.repo.js';
import * as repo from '../../store/repositories/trails.repo.js';
import type { TrailStatus } from '../../store/enums.js';
import type { TrailTable } from '../../store/schema.js';
import type { Db, Store, Tx } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { nextModified, nowIso } from '../clock.js';
import { renderBodyOffThread } from '../convert/pool.js';
import { nextArrival } from '../arrivals.js';
import { currentCaller, inTransaction } from '../fair-share.js';
import { TrailMoves } from './moves.js';
import { trailSummaries } from './summary.js';
import { recordChange } from '../events/record.js';
import { findFlowVersion, latestRevision } from '../../store/repositories/revisions.repo.js';
import { readRevision } from '../revisions/read.js';
import { parseVersionGraph } from '../revisions/flow-version.js';
import { trailContextIssues, type TrailContextSchema } from '../flows/trail-context-schema.js';
import { checkAnswers, missingRequired, snapshotOfRevision, stepElements, storedSnapshot, takeSnapshot, type BitSnapshot, type SubmittedAnswer } from './step.js';
import { answerView, availableConnections, historyEntry, inMarkdown, isOverdue, latestAnswers, stepCore, type BodyReader, type StepCore, type TrailCore, type TrailRead } from './view.js';
import { notify } from '../notifications/record.js';
import { findGroupByRef, findPrincipalByRef, namesOf } from '../../store/repositories/assignees.repo.js';
import { parseAssignee } from '../assignee.js';
import { permissionAtLeast } from '../actor.js';
import {
  assigneeView,
  assignmentColumns,
  assignmentOf,
  mayActAs,
  named,
  needsPerson,
  resolveEntry,
  stepAssignedError,
  stepDue,
  waitingForLine,
  type StepAssignment,
} from './assignment.js';
import type { AnswerView, AnswerWarnings, TrailPage } from './shapes.js';

/**
 * Whether stored JSON (a bit's body, a step's snapshot) is large enough that reading, parsing, writing it out and
 * hashing and storing it take turns of the event loop of their own: an advance over a 7 MB bit did all of it in one
 * turn of 100–170 ms (SQLite answers in the same turn; issue 16).
 */
function large(raw: unknown): boolean {
  return textLongerThan(raw, LIMITS.inlineConvertChars);
}

export interface StartTrailInput {
  flow_id: string;
  trail_context?: Record<string, unknown>;
  trail_title?: string;
  /** 'approved': run the flow's last approved version; 'current' (the default): the bits as they are when entered. */
  version?: 'current' | 'approved';
  /** When the whole trail should be done (ISO date-time, later than now). */
  due_date_time_utc?: string;
}

/** Whom a step is handed to: "person:<id or email>", "group:<id or name>"; null (assign_step): nobody, open to anyone. */
export type HandTo = string | null;

export interface ListTrailsInput {
  flow_id?: string;
  status?: TrailStatus;
  principal_id?: string;
  include_archived?: boolean;
  cursor?: string;
  limit?: number;
}

type Q = Db | Tx;

/**
 * Whether the actor may answer and advance this step as far as human_required and hand-overs go: an agent never
 * acts on a human_required step nor on one handed to a person. Who the step is assigned to is checked apart
 * (trails/assignment.ts, mayActAs).
 */
export function mayActOn(actor: Pick<Actor, 'kind'>, step: { human_required: boolean; waiting_for_person: boolean }): boolean {
  return actor.kind === 'person' || (!step.human_required && !step.waiting_for_person);
}

function isAdmin(actor: Actor): boolean {
  return permissionAtLeast(actor.permission, 'admin');
}

export { needsPerson } from './assignment.js';

/** A due time given at start: an ISO date-time later than now, kept as UTC ISO text. */
function dueAtOf(text: string | undefined, now: string): string | null {
  if (text === undefined) return null;
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(ms)) {
    throw validationError([{ path: 'due_date_time_utc', message: 'must be an ISO 8601 date-time, e.g. 2026-03-31T17:00:00Z' }]);
  }
  const due = new Date(ms).toISOString();
  if (due <= now) throw validationError([{ path: 'due_date_time_utc', message: `must be later than now (${now})` }]);
  return due;
}

export class TrailsService {
  /** The moves of each trail under way in this process (trails/moves.ts). */
  private readonly moves = new TrailMoves();

  constructor(private readonly store: Store) {}

  private parse<T>(raw: unknown): T {
    return this.store.dialect.parseJson<T>(raw);
  }

  /** The trail as read for the caller (visibleTo); another account's or an invisible scope's trail is TRAIL_NOT_FOUND. */
  private visibleTrail(row: TrailTable | undefined, trailId: string): TrailTable {
    if (!row) throw new WaymarkError('TRAIL_NOT_FOUND', `No trail ${trailId} is visible to this token: list_trails shows the trails you can use.`, { trail_id: trailId });
    return row;
  }

  private assertRunning(trail: TrailTable): void {
    if (trail.status === 'completed' || trail.status === 'cancelled') {
      throw new WaymarkError('TRAIL_NOT_RUNNING', `Trail ${trail.id} is ${trail.status}; nothing more can be answered or advanced on it. Start a new trail with start_trail.`, {
        status: trail.status,
      });
    }
  }

  /**
   * Who may answer and advance the step (issue 27): nobody but its assignee when it is assigned (a member of the
   * group it is offered to takes it by acting on it: the claim is written here, in the caller's transaction); then
   * agents may not act on a human_required step, nor on one handed to a person; people may.
   */
  private async assertMayAct(tx: Tx, actor: Actor, trail: TrailTable, step: repo.StepRow, snapshot: BitSnapshot, doing: string): Promise<void> {
    const assignment = assignmentOf(trail);
    const may = await mayActAs(tx, actor, assignment);
    if (may === 'no') throw stepAssignedError(actor, { trail_id: trail.id, step_id: step.id, title: snapshot.title }, (await assigneeView(tx, trail.account_id, assignment))!, doing);
    if (may === 'claim') await this.setAssignment(tx, trail, step, { ...assignment, principal: actor.principalId }, 'person', actor.principalId);
    this.assertHumanRules(actor, trail, snapshot);
  }

  private assertHumanRules(actor: Actor, trail: TrailTable, snapshot: BitSnapshot): void {
    const waiting = trail.status === 'waiting_for_person';
    if (!mayActOn(actor, { human_required: snapshot.human_required, waiting_for_person: waiting })) {
      // A step already handed over must not send the agent to transfer_step again: it waits for the person.
      const message = waiting
        ? `Step "${snapshot.title}" was handed to a person and is waiting for them: an agent must not answer or advance it, and it needs no second transfer_step. Tell the user it waits for a person; get_trail shows when they have moved it on.`
        : `Step "${snapshot.title}" is human_required: an agent must not answer or advance it. Call transfer_step with the trail_id and a reason to hand it to a person; a person's token can then answer and advance it.`;
      throw new WaymarkError('HUMAN_REQUIRED', message, { trail_id: trail.id, step_id: trail.current_step_id, bit_id: snapshot.bit_id, waiting_for_person: waiting });
    }
  }

  /**
   * Enters a bit as the trail's next step: the bit as it is now, with its links and connections, or, on a trail
   * that runs an approved flow version, the bit revision that version holds. The step records the revision.
   */
  private async enterStep(
    tx: Tx,
    trail: Pick<TrailTable, 'id' | 'account_id' | 'flow_id' | 'flow_version' | 'started_by' | 'context' | 'due_at'>,
    bitId: string,
    seq: number,
    at: string,
  ): Promise<{ id: string; snapshot: BitSnapshot; assignment: StepAssignment; principalKind: 'person' | 'agent' | null }> {
    const { snapshot, revision, big } = trail.flow_version === null ? await this.liveBit(tx, trail.account_id, bitId) : await this.approvedBit(tx, trail, bitId);
    // Who does it and by when, as the bit says now (or as the approved version holds it).
    const resolved = await resolveEntry(tx, { ...trail, context: this.parse<Record<string, unknown>>(trail.context) }, snapshot);
    const assignment = { ...resolved.assignment, due: stepDue(at, snapshot.expected_duration, trail.due_at) };
    const id = randomUUID();
    if (big) await yieldToEventLoop();
    // A bit entered unchanged, by this trail or any other of the account, is stored once (migration 018): the step
    // keeps the snapshot's hash; only a snapshot the account has never stored is sent to the store.
    const json = this.store.dialect.json(snapshot);
    if (big) await yieldToEventLoop();
    const hash = createHash('sha256').update(json).digest('hex');
    if (!(await repo.hasSnapshot(tx, trail.account_id, hash))) await repo.storeSnapshot(tx, trail.account_id, hash, json);
    await repo.insertStep(tx, {
      id,
      trail_id: trail.id,
      seq,
      bit_id: bitId,
      bit_title: snapshot.title,
      bit_snapshot: this.store.dialect.json(null),
      snapshot_hash: hash,
      snapshot_step_id: null,
      entered_at: at,
      bit_revision: revision,
      human_required: snapshot.human_required ? 1 : 0,
      assignee_principal: assignment.principal,
      assignee_group: assignment.group,
      due_at: assignment.due,
      overdue_reminded: 0,
    });
    return { id, snapshot, assignment, principalKind: resolved.principalKind };
  }

  /** The changes of the trail's row for a step just entered: it becomes current, with its assignment. */
  private enteredChanges(status: TrailStatus, entered: { id: string; snapshot: BitSnapshot; assignment: StepAssignment; principalKind: 'person' | 'agent' | null }) {
    return {
      current_step_id: entered.id,
      needs_person: needsPerson(status, entered.snapshot.human_required, { ...entered.assignment, principalKind: entered.principalKind }),
      ...assignmentColumns(entered.assignment),
    };
  }

  /**
   * Tells the person or the group's members that a step is theirs now (notifications/record.ts), in the write's
   * transaction; never the actor.
   */
  private async tellAssigned(tx: Tx, actor: Actor, trail: Pick<TrailTable, 'id' | 'account_id' | 'flow_id' | 'title'>, stepId: string, stepTitle: string, a: StepAssignment): Promise<void> {
    if (!named(a)) return;
    const flow = await findFlow(tx, trail.flow_id);
    // Offered to a group: its members read "Your group <name> has a step to do" (words.ts SUMMARY_KEYS.groupName).
    const group = a.principal === null && a.group !== null ? (await namesOf(tx, trail.account_id, [], [a.group])).groups.get(a.group) ?? null : null;
    await notify(tx, trail.account_id, a.principal ? { principalIds: [a.principal] } : { groupId: a.group }, {
      kind: 'assigned',
      trailId: trail.id,
      stepId,
      actorId: actor.principalId,
      summary: { trail_title: trail.title, flow_title: flow?.title ?? null, step_title: stepTitle, due_date_time_utc: a.due, group_id: a.principal ? null : a.group, group_name: group },
    });
  }

  /**
   * Gives the current step to someone else (or nobody): its row, and the trail's row through changeTrail (the
   * inbox's counts and the participants follow). `kind`: the new principal's kind, when one is named.
   */
  private async setAssignment(tx: Tx, trail: TrailTable, step: Pick<repo.StepRow, 'id' | 'human_required'>, next: StepAssignment, kind: 'person' | 'agent' | null, by: string, extra: repo.TrailChanges = {}): Promise<void> {
    await repo.updateStep(tx, step.id, { assignee_principal: next.principal, assignee_group: next.group, due_at: next.due });
    const status = extra.status ?? trail.status;
    const changes: repo.TrailChanges = {
      ...extra,
      step_assignee: next.principal,
      step_group: next.group,
      step_due_at: next.due,
      needs_person: needsPerson(status, Number(step.human_required) === 1, { ...next, principalKind: kind }),
      updated_at: extra.updated_at ?? nextModified(trail.updated_at),
    };
    await repo.changeTrail(tx, trail, changes, by);
    Object.assign(trail, changes);
  }

  private async liveBit(tx: Tx, accountId: string, bitId: string): Promise<{ snapshot: BitSnapshot; revision: number | null; big: boolean }> {
    const bit = await findBit(tx, bitId, accountWide(accountId));
    if (!bit || bit.status !== 'active') {
      throw new WaymarkError('BIT_ARCHIVED', `Bit ${bitId} is no longer active, so the trail cannot enter it; ask an author to repoint the flow or restore the bit.`, { bit_id: bitId });
    }
    const big = large(bit.body);
    if (big) await yieldToEventLoop();
    const snapshot = takeSnapshot(bit, (raw) => this.parse(raw), await listLinksForBit(tx, bitId), await connectionsFrom(tx, accountId, [bitId]));
    const revision = await latestRevision(tx, accountId, bitId);
    return { snapshot, revision: revision ? Number(revision.revision) : null, big };
  }

  /** The bit as the trail's approved flow version holds it (archived since or not). */
  private async approvedBit(tx: Tx, trail: Pick<TrailTable, 'account_id' | 'flow_id' | 'flow_version'>, bitId: string): Promise<{ snapshot: BitSnapshot; revision: number; big: boolean }> {
    const version = await findFlowVersion(tx, trail.account_id, trail.flow_id, trail.flow_version ?? undefined);
    const revision = version ? parseVersionGraph(version.graph).bits[bitId] : undefined;
    const read = revision === undefined ? null : await readRevision(tx, trail.account_id, bitId, revision);
    if (!read || revision === undefined) {
      throw new WaymarkError('BIT_NOT_FOUND', `Bit ${bitId} is not part of version ${trail.flow_version} of flow ${trail.flow_id}, which this trail runs.`, { bit_id: bitId, flow_version: trail.flow_version });
    }
    return { snapshot: snapshotOfRevision(bitId, read.state), revision, big: read.state.nodes.length > 1000 };
  }

  /**
   * The trail with its current step and history, read in one go, for the reader named: the current step's body
   * printed as markdown for an agent, or left in the snapshot for the step form (which shows it as Slate).
   * `entered`: the current step's snapshot when the caller holds it already (it has just taken or read it), so
   * it is not read and parsed again.
   */
  private async view<R extends BodyReader>(q: Q, trail: TrailTable, reader: R, entered?: BitSnapshot): Promise<TrailRead<R>> {
    const steps = await repo.stepsOf(q, trail.id);
    const answers = await repo.answersOf(q, trail.id);
    const eventsByStep = new Map<string | null, repo.TrailEvent[]>();
    for (const event of await repo.trailEventsOf(q, trail.id)) eventsByStep.set(event.step_id, [...(eventsByStep.get(event.step_id) ?? []), event]);
    const byStep = new Map<string, AnswerView[]>();
    for (const row of answers) {
      const list = byStep.get(row.step_id) ?? [];
      list.push(answerView(row, (raw) => this.parse(raw)));
      byStep.set(row.step_id, list);
    }
    const history = [];
    const now = nowIso();
    let current: StepCore | null = null;
    let snapshot: BitSnapshot | null = null;
    let targets = new Map<string, { title: string; status: string }>();
    for (const step of steps) {
      const stepAnswers = byStep.get(step.id) ?? [];
      const stepEvents = eventsByStep.get(step.id) ?? [];
      // Only the current step's snapshot is read: the history names each bit by the title kept on its step.
      const kept = step.id === trail.current_step_id ? (entered ?? (await this.readSnapshot(q, step))) : null;
      history.push(historyEntry(step, step.bit_title ?? kept?.title ?? '', stepAnswers, stepEvents));
      if (kept) {
        snapshot = kept;
        const live = await this.targetsOf(q, trail, kept);
        targets = live;
        current = stepCore({ step, snapshot: kept, answers: stepAnswers }, trail.status, live, stepEvents, await this.waitingOf(q, trail, kept, now));
      }
    }
    const core: TrailCore = {
      trail_id: trail.id,
      flow_id: trail.flow_id,
      trail_title: trail.title,
      status: trail.status,
      trail_context: this.parse<Record<string, unknown>>(trail.context),
      started_by: trail.started_by,
      started_date_time_utc: trail.created_at,
      last_modified_date_time_utc: trail.updated_at,
      flow_version: trail.flow_version === null ? null : Number(trail.flow_version),
      due_date_time_utc: trail.due_at,
      overdue: isOverdue(trail.due_at, trail.status, now),
      current_step: current,
      history,
    };
    if (reader === 'slate' || !snapshot) return { trail: reader === 'slate' ? core : inMarkdown(core, ''), snapshot, targets } as TrailRead<R>;
    const body = snapshot.body;
    if (large(body.children)) await yieldToEventLoop();
    const render = () => renderBodyOffThread(body);
    const markdown = await (q === this.store.db ? render() : inTransaction(render));
    return { trail: inMarkdown(core, markdown), snapshot, targets } as TrailRead<R>;
  }

  /** Who the current step waits for and by when; when the bit names someone who did not resolve, why nobody is named. */
  private async waitingOf(q: Q, trail: TrailTable, snapshot: BitSnapshot, now: string) {
    const assignment = assignmentOf(trail);
    const assignee = await assigneeView(q, trail.account_id, assignment);
    const overdue = isOverdue(assignment.due, trail.status, now);
    const unresolved = assignee === null && snapshot.assignee !== null ? (await resolveEntry(q, { ...trail, context: this.parse<Record<string, unknown>>(trail.context) }, snapshot)).unresolved : null;
    return { assignee, due_date_time_utc: assignment.due, overdue, waiting_for: waitingForLine(assignee, assignment.due, overdue, unresolved) };
  }

  /** A step's snapshot, read and parsed in turns of their own when it is large. */
  private async readSnapshot(q: Q, step: repo.StepRow): Promise<BitSnapshot> {
    const raw = await repo.stepSnapshot(q, step);
    if (!large(raw)) return storedSnapshot(this.parse<BitSnapshot>(raw));
    await yieldToEventLoop();
    const snapshot = storedSnapshot(this.parse<BitSnapshot>(raw));
    await yieldToEventLoop();
    return snapshot;
  }

  /** The trail locked, visible, running, and its current step with the snapshot and answers. */
  private async current(tx: Tx, actor: Actor, trailId: string) {
    const trail = this.visibleTrail(await repo.lockTrail(tx, this.store.dialect, trailId, actor), trailId);
    this.assertRunning(trail);
    const step = trail.current_step_id ? await repo.findStep(tx, trail.current_step_id) : undefined;
    if (!step) throw new Error(`trail ${trail.id} is ${trail.status} without a current step`);
    const snapshot = await this.readSnapshot(tx, step);
    const answers = (await repo.answersOfStep(tx, step.id)).map((row) => answerView(row, (raw) => this.parse(raw)));
    return { trail, step, snapshot, answers };
  }

  async start<R extends BodyReader>(actor: Actor, input: StartTrailInput, reader: R): Promise<TrailRead<R>> {
    assertContextSize(input.trail_context);
    return this.store.transaction(async (tx) => {
      const flow = await findFlow(tx, input.flow_id, actor);
      if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${input.flow_id} is visible to this token: list_flows shows the flows you can run.`, { flow_id: input.flow_id });
      if (flow.is_active !== 1) {
        throw new WaymarkError('FLOW_INACTIVE', `Flow ${flow.id} is inactive, so no trail can start on it; an author re-activates it with update_flow (is_active: true).`, { flow_id: flow.id });
      }
      // The approved version runs as approved: its start bit, its trail_context_schema, its bits' revisions.
      const approved = input.version === 'approved' ? await this.approvedVersion(tx, flow) : null;
      const schema = approved ? approved.schema : flow.trail_context_schema === null ? null : this.parse<TrailContextSchema>(flow.trail_context_schema);
      const context = input.trail_context ?? {};
      if (schema !== null) {
        const issues = trailContextIssues(schema, context);
        if (issues.length > 0) {
          throw issuesError('TRAIL_CONTEXT_INVALID', issues, { lead: "trail_context does not fit the flow's trail_context_schema (get_flow shows it): ", show: (i) => `${i.path} ${i.message}` });
        }
      }
      const now = nowIso();
      const dueAt = dueAtOf(input.due_date_time_utc, now);
      const trail: TrailTable = {
        id: randomUUID(),
        account_id: flow.account_id,
        scope_id: flow.scope_id,
        flow_id: flow.id,
        title: input.trail_title ?? null,
        context: this.store.dialect.json(context),
        status: 'running',
        current_step_id: null,
        started_by: actor.principalId,
        created_at: now,
        updated_at: now,
        flow_version: approved?.version ?? null,
        // Until its first step is entered, just below.
        needs_person: 0,
        step_assignee: null,
        step_group: null,
        step_due_at: null,
        step_reminded: 0,
        due_at: dueAt,
        due_reminded: 0,
      };
      await repo.insertTrail(tx, trail);
      const entered = await this.enterStep(tx, trail, approved?.startBitId ?? flow.start_bit_id, 1, now);
      const changes = this.enteredChanges(trail.status, entered);
      await repo.changeTrail(tx, trail, changes, actor.principalId);
      Object.assign(trail, changes);
      await this.tellAssigned(tx, actor, trail, entered.id, entered.snapshot.title, entered.assignment);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { flow_id: flow.id, step_id: entered.id } });
      return this.view(tx, trail, reader, entered.snapshot);
    });
  }

  /**
   * The targets of a step's connections as a trail may enter them: as they are now, or, on a trail that runs an
   * approved version, as that version holds them (a bit archived since stays part of it).
   */
  private async targetsOf(q: Db | Tx, trail: Pick<TrailTable, 'account_id' | 'flow_id' | 'flow_version'>, snapshot: BitSnapshot): Promise<Map<string, { title: string; status: string }>> {
    const ids = [...new Set(snapshot.connections.map((c) => c.target_bit_id))];
    if (trail.flow_version !== null) {
      const version = await findFlowVersion(q, trail.account_id, trail.flow_id, trail.flow_version);
      const graph = version ? parseVersionGraph(version.graph) : null;
      return new Map(ids.flatMap((id) => (graph?.bits[id] === undefined ? [] : [[id, { title: graph.titles[id] ?? id, status: 'active' }] as const])));
    }
    const targets = await findBitHeads(q, ids, accountWide(trail.account_id));
    return new Map(targets.map((b) => [b.id, { title: b.title, status: b.status }]));
  }

  /** The flow's last approved version, its start bit and trail_context_schema as approved. */
  private async approvedVersion(tx: Tx, flow: { id: string; account_id: string }): Promise<{ version: number; startBitId: string; schema: TrailContextSchema | null }> {
    const version = await findFlowVersion(tx, flow.account_id, flow.id);
    const read = version ? await readRevision(tx, flow.account_id, flow.id, version.flow_revision) : null;
    if (!version || !read) {
      throw new WaymarkError('FLOW_NOT_APPROVED', `Flow ${flow.id} has no approved version to run: approve it (review_flow with review_status "approved"), or start the trail without version to run the bits as they are now.`, { flow_id: flow.id });
    }
    const schema = (read.state.fields.trail_context_schema ?? null) as TrailContextSchema | null;
    return { version: Number(version.version), startBitId: parseVersionGraph(version.graph).start_bit_id, schema };
  }

  /** get_trail reads the trail as markdown; the step form as Slate (and trail_people needs no body: Slate prints nothing). */
  async get<R extends BodyReader>(actor: Actor, input: { trail_id: string }, reader: R): Promise<TrailRead<R>> {
    const db = this.store.db;
    return this.view(db, this.visibleTrail(await repo.findTrail(db, input.trail_id, actor), input.trail_id), reader);
  }

  async list(actor: Actor, input: ListTrailsInput): Promise<TrailPage> {
    const db = this.store.db;
    if (input.flow_id) {
      const flow = await findFlow(db, input.flow_id, actor);
      if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${input.flow_id} is visible to this token: list_flows shows the flows you can see.`, { flow_id: input.flow_id });
    }
    const page = await repo.listTrails(
      db,
      { accountId: actor.accountId, scopeId: actor.scopeId },
      { flowId: input.flow_id, status: input.status, principalId: input.principal_id, includeArchived: input.include_archived },
      { limit: input.limit ?? LIMITS.defaultPageSize, cursor: input.cursor },
    );
    return {
      trails: await trailSummaries(db, page.rows),
      next_cursor: page.next_cursor,
    };
  }

  /** Answers the step's progress (no body: submit_step_data shows none, the step form takes it from the snapshot). */
  async submit(actor: Actor, input: { trail_id: string; data: SubmittedAnswer[]; expected_step_id?: string }): Promise<TrailRead<'slate'> & { warnings: AnswerWarnings }> {
    assertAnswerSizes(input.data);
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot } = await this.current(tx, actor, input.trail_id);
      if (input.expected_step_id !== undefined && input.expected_step_id !== step.id) throw notAtStep(trail.id, input.expected_step_id, step, snapshot.title, 'recorded');
      await this.assertMayAct(tx, actor, trail, step, snapshot, 'answer');
      const check = checkAnswers(snapshot.body, input.data);
      if (check.unknown.length > 0) {
        const known = stepElements(snapshot.body).flatMap((e) => (answeredByItems(e.type) ? (e.items ?? []).map((i) => i.id) : e.element_type ? [e.element_id] : []));
        throw new WaymarkError('ELEMENT_NOT_FOUND', `The current step "${snapshot.title}" holds no element ${check.unknown.join(', ')}; its answerable ids are: ${known.join(', ') || 'none'} (get_trail lists them with their element_type).`, {
          element_id: check.unknown[0],
          element_ids: check.unknown,
          answerable_element_ids: known,
        });
      }
      if (check.issues.length > 0) {
        throw new WaymarkError('ANSWER_INVALID', `Nothing was recorded; fix every answer: ${check.issues.map((i) => `${i.path} (${i.element_id}): ${i.message}`).join('; ')}`, { issues: check.issues });
      }
      const now = nowIso();
      const rows = check.accepted.map((a) => {
        // Stored as submitted, `{value: <inner>}`: always an object, because the pg dialect's parseJson
        // would parse a top-level JSON string (already decoded by pg) a second time.
        const value = this.store.dialect.json({ value: a.value });
        return {
          trail_id: trail.id,
          step_id: step.id,
          element_id: a.element_id,
          element_type: a.element_type,
          value,
          value_bytes: Buffer.byteLength(value),
          warnings: a.warnings.length > 0 ? this.store.dialect.json(a.warnings) : null,
          answered_by: actor.principalId,
          answered_at: now,
        };
      });
      await this.assertRoomForAnswers(tx, trail.id, step.id, rows.reduce((sum, r) => sum + r.value_bytes, 0));
      await repo.insertAnswers(tx, rows);
      const updatedAt = nextModified(trail.updated_at);
      // An empty submit records no answer, so it makes no one a participant.
      await repo.changeTrail(tx, trail, { updated_at: updatedAt }, rows.length > 0 ? actor.principalId : null);
      trail.updated_at = updatedAt;
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, element_ids: rows.map((r) => r.element_id) } });
      const warnings = check.accepted.filter((a) => a.warnings.length > 0).map((a) => ({ element_id: a.element_id, warnings: a.warnings }));
      // The step is the one just read, and a snapshot never changes: the view takes it as it is.
      return { ...(await this.view(tx, trail, 'slate', snapshot)), warnings };
    });
  }

  /**
   * Every answer given is kept (the history shows replaced ones too) and answered by get_trail, so a step's
   * answers and a trail's are bounded in bytes (LIMITS.answersPerStepBytes, answersPerTrailBytes).
   */
  private async assertRoomForAnswers(tx: Tx, trailId: string, stepId: string, adding: number): Promise<void> {
    const stored = await repo.answerBytes(tx, trailId, stepId);
    const over =
      stored.step + adding > LIMITS.answersPerStepBytes
        ? { limit: 'answersPerStepBytes', max: LIMITS.answersPerStepBytes, what: 'this step' }
        : stored.trail + adding > LIMITS.answersPerTrailBytes
          ? { limit: 'answersPerTrailBytes', max: LIMITS.answersPerTrailBytes, what: 'this trail' }
          : null;
    if (over) {
      throw validationError(
        [{ path: 'data', message: `the answers of ${over.what} would exceed ${over.max} bytes` }],
        `Nothing was recorded: the answers kept for ${over.what} would exceed ${over.max} bytes (every answer given is kept, replaced ones too). Submit only what changed, and keep values short.`,
        { limit: over.limit, max: over.max },
      );
    }
  }

  /**
   * `expected_step_id` (our extension, issue 16): the step the caller means to leave. A retried or doubled call
   * whose step was already left is refused instead of leaving the next step too. Without it, the step current
   * as the call arrived (trails/moves.ts).
   */
  async advance<R extends BodyReader>(actor: Actor, input: { trail_id: string; connection_id?: string; expected_step_id?: string }, reader: R): Promise<TrailRead<R>> {
    return this.advanceFrom(actor, input, reader, currentCaller()?.arrival ?? nextArrival());
  }

  private async advanceFrom<R extends BodyReader>(actor: Actor, input: { trail_id: string; connection_id?: string; expected_step_id?: string }, reader: R, arrival: number): Promise<TrailRead<R>> {
    // The step the caller means to leave when it did not say: the one current as its call arrived (trails/moves.ts).
    const arrivedAt = input.expected_step_id === undefined ? (await repo.findTrail(this.store.db, input.trail_id, actor))?.current_step_id : undefined;
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot, answers } = await this.current(tx, actor, input.trail_id);
      if (input.expected_step_id === undefined && (this.moves.movedSince(trail.id, arrival) || (arrivedAt != null && arrivedAt !== step.id))) {
        throw validationError(
          [{ path: 'trail_id', message: 'the trail moved on while this call waited' }],
          `Trail ${trail.id} was advanced by another call while this one waited: it is now at step ${step.seq} "${snapshot.title}" (${step.id}), which this call never saw, so nothing was advanced. Read it with get_trail, and advance again (with expected_step_id) if you mean to leave that step too.`,
          { current_step: { step_id: step.id, seq: step.seq, bit_id: step.bit_id, bit_title: snapshot.title } },
        );
      }
      if (input.expected_step_id !== undefined && input.expected_step_id !== step.id) throw notAtStep(trail.id, input.expected_step_id, step, snapshot.title, 'advanced');
      await this.assertMayAct(tx, actor, trail, step, snapshot, 'advance');
      const latest = latestAnswers(answers);
      const missing = missingRequired(stepElements(snapshot.body), latest);
      if (missing.length > 0) {
        throw new WaymarkError(
          'REQUIRED_ANSWERS_MISSING',
          `Step "${snapshot.title}" has required elements without an answer (a required check-list item must be checked): ${choiceList(missing.map((m) => ({ id: m.element_id, label: m.label })))}. Answer them with submit_step_data, then advance.`,
          { element_ids: missing.map((m) => m.element_id), elements: missing },
        );
      }
      const available = availableConnections(snapshot, latest, await this.targetsOf(tx, trail, snapshot));
      const choices = available.map((c) => ({ connection_id: c.connection_id, target_bit_id: c.target_bit_id, target_bit_title: c.target_bit_title, label: c.label }));
      let follow = available.length === 1 ? available[0] : undefined;
      if (input.connection_id !== undefined) {
        follow = available.find((c) => c.connection_id === input.connection_id);
        if (!follow) {
          const known = snapshot.connections.some((c) => c.connection_id === input.connection_id);
          throw validationError(
            [{ path: 'connection_id', message: known ? 'this connection is not available now: its condition does not hold for the answers given, or its target is archived' : 'not a connection of the current step' }],
            `connection_id ${input.connection_id} cannot be followed now; available: ${choices.map((c) => `${c.connection_id} (${c.label ?? c.target_bit_title})`).join(', ') || 'none (advance without connection_id to complete the trail)'}.`,
          );
        }
      } else if (available.length > 1) {
        const error = validationError(
          [{ path: 'connection_id', message: 'several connections are available: pass one of them' }],
          `Several connections are available from "${snapshot.title}"; call advance_trail again with connection_id, one of: ${choices.map((c) => `${c.connection_id} → ${c.target_bit_title}${c.label ? ` (${c.label})` : ''}`).join('; ')}.`,
        );
        throw new WaymarkError(error.code, error.message, { ...error.details, available_connections: choices });
      }
      if (follow && step.seq >= LIMITS.stepsPerTrail) {
        throw validationError(
          [{ path: 'trail_id', message: `the trail has entered ${LIMITS.stepsPerTrail} steps, the most one trail may` }],
          `Trail ${trail.id} has entered ${LIMITS.stepsPerTrail} steps, the most one trail may; cancel it (cancel_trail) and start a new one to go on.`,
          { limit: 'stepsPerTrail', max: LIMITS.stepsPerTrail },
        );
      }
      const now = nextModified(trail.updated_at);
      await repo.updateStep(tx, step.id, { left_at: now, left_by: actor.principalId, left_by_connection_id: follow?.connection_id ?? null });
      let entered: Awaited<ReturnType<TrailsService['enterStep']>> | undefined;
      let changes: repo.TrailChanges;
      if (follow) {
        entered = await this.enterStep(tx, trail, follow.target_bit_id, step.seq + 1, now);
        changes = { ...this.enteredChanges('running', entered), status: 'running', updated_at: now };
      } else {
        // No connection is available: the trail has reached its end.
        changes = { current_step_id: null, status: 'completed', needs_person: 0, ...assignmentColumns({ principal: null, group: null, due: null }), updated_at: now };
      }
      // Only from the step this call read: the row lock already orders advances, and the condition makes sure
      // on every engine that no advance ever leaves a step another one has left.
      if (!(await repo.changeTrail(tx, trail, changes, actor.principalId, step.id))) {
        throw validationError([{ path: 'trail_id', message: 'the trail moved on while this call ran' }], `Trail ${trail.id} was advanced by another call meanwhile; nothing was advanced. Read it with get_trail.`);
      }
      Object.assign(trail, changes);
      if (entered) await this.tellAssigned(tx, actor, trail, entered.id, entered.snapshot.title, entered.assignment);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, status: trail.status } });
      this.moves.moved(trail.id);
      return this.view(tx, trail, reader, entered?.snapshot);
    });
  }

  /**
   * Every transfer is kept as an event (trail_events): the history, the step's transfer_reason and list_trails read
   * them. `to` names the person or group the step is handed to (issue 27); without it the step waits for any person,
   * or, when the caller holds it, goes back to the group it was offered to. A step someone else holds is theirs to
   * hand over (or an Admin's).
   */
  async transfer(actor: Actor, input: { trail_id: string; reason: string; to?: string }): Promise<TrailRead<'slate'>> {
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot } = await this.current(tx, actor, input.trail_id);
      const before = assignmentOf(trail);
      if (named(before) && !isAdmin(actor) && (await mayActAs(tx, actor, before)) === 'no') {
        throw stepAssignedError(actor, { trail_id: trail.id, step_id: step.id, title: snapshot.title }, (await assigneeView(tx, trail.account_id, before))!, 'hand over');
      }
      const to = input.to === undefined ? undefined : await this.handTo(tx, actor, input.to);
      const next: StepAssignment = to ? { ...to.assignment, due: before.due } : before.principal === actor.principalId ? { ...before, principal: null } : before;
      const now = nextModified(trail.updated_at);
      await repo.insertTrailEvent(tx, trail.id, { step_id: step.id, kind: 'transfer', reason: input.reason, principal_id: actor.principalId, at: now });
      await this.setAssignment(tx, trail, step, next, to?.kind ?? (next.principal === null ? null : 'person'), actor.principalId, { status: 'waiting_for_person', updated_at: now });
      if (to) await this.tellAssigned(tx, actor, trail, step.id, snapshot.title, next);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, status: trail.status, assignee: next.principal, group_id: next.group } });
      return this.view(tx, trail, 'slate', snapshot);
    });
  }

  /**
   * The person or group a step is handed to ("person:<id or email>", "group:<id or name>"), among those the caller
   * may see: another account's, or a scope's the caller cannot see, is not found.
   */
  private async handTo(tx: Tx, actor: Actor, to: string): Promise<{ assignment: StepAssignment; kind: 'person' | 'agent' | null }> {
    const form = parseAssignee(to);
    if (form?.kind === 'person') {
      const person = await findPrincipalByRef(tx, actor, form.ref);
      if (!person) throw new WaymarkError('PRINCIPAL_NOT_FOUND', `Nobody of this account is ${form.ref.slice(0, 200)}: name a person by principal id or email ("person:ann@example.com").`, { to: to.slice(0, 200) });
      return { assignment: { principal: person.id, group: null, due: null }, kind: person.kind };
    }
    if (form?.kind === 'group') {
      const group = await findGroupByRef(tx, actor, form.ref);
      if (!group) throw new WaymarkError('GROUP_NOT_FOUND', `No group ${form.ref.slice(0, 200)} is visible to this token: name a group by id or name ("group:Finance"); an Admin lists them in the app's Groups page.`, { to: to.slice(0, 200) });
      return { assignment: { principal: null, group: group.id, due: null }, kind: null };
    }
    throw validationError([{ path: 'to', message: 'must be "person:<id or email>" or "group:<id or name>"' }]);
  }

  /**
   * claim_step: the caller takes the current step, offered to a group of theirs or open to anyone, that no one
   * else holds. Claiming a step one already holds changes nothing.
   */
  async claim(actor: Actor, input: { trail_id: string }): Promise<TrailRead<'slate'>> {
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot } = await this.current(tx, actor, input.trail_id);
      const before = assignmentOf(trail);
      if (before.principal === actor.principalId) return this.view(tx, trail, 'slate', snapshot);
      if ((await mayActAs(tx, actor, before)) === 'no') {
        throw stepAssignedError(actor, { trail_id: trail.id, step_id: step.id, title: snapshot.title }, (await assigneeView(tx, trail.account_id, before))!, 'claim');
      }
      this.assertHumanRules(actor, trail, snapshot);
      const next = { ...before, principal: actor.principalId };
      await this.setAssignment(tx, trail, step, next, actor.kind === 'person' ? 'person' : 'agent', actor.principalId);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, claimed_by: actor.principalId, group_id: next.group } });
      return this.view(tx, trail, 'slate', snapshot);
    });
  }

  /**
   * release_step: the holder gives the step back to the group it was offered to, or to anyone when it had none. A
   * step nobody holds is left as it is.
   */
  async release(actor: Actor, input: { trail_id: string }): Promise<TrailRead<'slate'>> {
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot } = await this.current(tx, actor, input.trail_id);
      const before = assignmentOf(trail);
      // Nobody holds it: releasing changes nothing (as claiming a step one holds).
      if (before.principal === null) return this.view(tx, trail, 'slate', snapshot);
      if (before.principal !== actor.principalId) {
        throw stepAssignedError(actor, { trail_id: trail.id, step_id: step.id, title: snapshot.title }, (await assigneeView(tx, trail.account_id, before))!, 'release');
      }
      const next = { ...before, principal: null };
      await this.setAssignment(tx, trail, step, next, null, actor.principalId);
      await this.tellAssigned(tx, actor, trail, step.id, snapshot.title, next);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, released_by: actor.principalId, group_id: next.group } });
      return this.view(tx, trail, 'slate', snapshot);
    });
  }

  /** assign_step (an Admin, the operation's access): the current step to a person, a group, or nobody (open to anyone). */
  async assign(actor: Actor, input: { trail_id: string; to: HandTo }): Promise<TrailRead<'slate'>> {
    return this.store.transaction(async (tx) => {
      const { trail, step, snapshot } = await this.current(tx, actor, input.trail_id);
      const before = assignmentOf(trail);
      const to = input.to === null ? null : await this.handTo(tx, actor, input.to);
      const next: StepAssignment = to ? { ...to.assignment, due: before.due } : { principal: null, group: null, due: before.due };
      await this.setAssignment(tx, trail, step, next, to?.kind ?? null, actor.principalId);
      await this.tellAssigned(tx, actor, trail, step.id, snapshot.title, next);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, assignee: next.principal, group_id: next.group } });
      return this.view(tx, trail, 'slate', snapshot);
    });
  }

  /**
   * Ends a running or waiting trail for good (CONTRACT.md lists the status `cancelled`): the current step is
   * left by the caller with no connection, and who, when and why is kept in that step's history. Any token
   * that may run the trail may cancel it, a human_required step included: cancelling answers nothing.
   * A completed or already cancelled trail is TRAIL_NOT_RUNNING, so a repeated call changes nothing.
   */
  async cancel(actor: Actor, input: { trail_id: string; reason?: string }): Promise<TrailRead<'slate'>> {
    return this.store.transaction(async (tx) => {
      const { trail, step } = await this.current(tx, actor, input.trail_id);
      const now = nextModified(trail.updated_at);
      await repo.insertTrailEvent(tx, trail.id, { step_id: step.id, kind: 'cancel', reason: input.reason ?? null, principal_id: actor.principalId, at: now });
      await repo.updateStep(tx, step.id, { left_at: now, left_by: actor.principalId, left_by_connection_id: null });
      const changes = { current_step_id: null, status: 'cancelled', needs_person: 0, ...assignmentColumns({ principal: null, group: null, due: null }), updated_at: now } as const;
      await repo.changeTrail(tx, trail, changes, actor.principalId);
      Object.assign(trail, changes);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'trail', resourceId: trail.id, scopeId: trail.scope_id, summary: { step_id: step.id, status: trail.status } });
      return this.view(tx, trail, 'slate');
    });
  }
}

/**
 * The refusal of a call meant for a step the trail has left (`expected_step_id`): nothing is done, and the details
 * name the step it is at now (the step form then says who moved it on, from the trail's history).
 */
function notAtStep(trailId: string, expected: string, step: { id: string; seq: number; bit_id: string }, title: string, nothing: 'advanced' | 'recorded'): WaymarkError {
  return validationError(
    [{ path: 'expected_step_id', message: 'is not the current step' }],
    `Trail ${trailId} is no longer at step ${expected.slice(0, 64)}: it is at step ${step.seq} "${title}" (${step.id}), so nothing was ${nothing}. Read it with get_trail before ${nothing === 'advanced' ? 'advancing' : 'answering'} again.`,
    { current_step: { step_id: step.id, seq: step.seq, bit_id: step.bit_id, bit_title: title } },
  );
}
