/**
 * The step payload (issue 11): everything the step form shows and checks, in one JSON shape, so the form can
 * run wherever that shape arrives (the web app, an MCP App). It is the trail view's current step (the same
 * elements, answers and available connections as get_trail) with the body as the snapshot's Slate nodes, each
 * element's answer rule (the text of the element definition that submit_step_data enforces) and what the
 * caller may do now.
 *
 * The step form's own reads and writes (step, save_step, advance_step) answer it from the one read their
 * trail call made (trails.service.ts, reader 'slate'): one snapshot parse, no markdown printed for nobody.
 */
import { ELEMENTS, isElementType } from '../../content/index.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import type { Store } from '../../store/store.js';
import { hasAccess, permissionAtLeast, RUN_ACCESS, type Actor } from '../actor.js';
import { isMember } from '../../store/repositories/assignees.repo.js';
import { contextLabels } from './context-labels.js';
import { mayActOn, type TrailsService } from './trails.service.js';
import type { SubmittedAnswer } from './step.js';
import type { StepPayload } from './shapes.js';
import { enterableConnections, withoutBody, type TrailRead } from './view.js';
import { stepComments } from './comments.service.js';
import { reachableFrom } from '../flows/graph.js';
import type { BitAhead } from './way-ahead.js';

export type { StepPayload } from './shapes.js';

export class StepFormService {
  constructor(
    private readonly store: Store,
    private readonly trails: TrailsService,
  ) {}

  /** The payload of a trail as a trail call has just read it (any reader: the body comes from the snapshot). */
  async of(actor: Actor, read: TrailRead): Promise<StepPayload> {
    const view = read.trail;
    const flow = await findFlow(this.store.db, view.flow_id);
    const current = view.current_step;
    const running = view.status === 'running' || view.status === 'waiting_for_person';
    const runs = hasAccess(actor, RUN_ACCESS);
    const assignee = current?.assignee ?? null;
    const mine = assignee !== null && assignee.principal_id === actor.principalId;
    // Offered to a group of the caller's that no one holds: the caller may take it (and does, by answering it).
    const groupOfMine = assignee !== null && assignee.principal_id === null && assignee.group_id !== null && actor.kind === 'person' && (await isMember(this.store.db, assignee.group_id, actor.principalId));
    const open = running && current !== null && runs;
    const acts = open && mayActOn(actor, current) && (assignee === null || mine || groupOfMine);
    let step: StepPayload['step'] = null;
    if (current && read.snapshot) {
      const { elements, ...core } = withoutBody(current);
      const connections = enterableConnections(read.snapshot, read.targets ?? new Map());
      step = {
        ...core,
        body: read.snapshot.body.children,
        elements: elements.map((e) => ({ ...e, answer_rule: isElementType(e.type) && ELEMENTS[e.type].stepType !== null ? ELEMENTS[e.type].answerRule : null })),
        // Every condition with its connection (available or not), so the form can open them with unsaved answers.
        connections,
        steps_done: view.history.flatMap((h) =>
          h.left_date_time_utc === null ? [] : [{ step_id: h.step_id, seq: h.seq, bit_title: h.bit_title, left_by: h.left_by, left_date_time_utc: h.left_date_time_utc }],
        ),
        ahead: running ? await this.ahead(actor, connections) : [],
      };
    }
    return {
      trail: {
        trail_id: view.trail_id,
        trail_title: view.trail_title,
        flow_id: view.flow_id,
        flow_title: flow?.title ?? '',
        status: view.status,
        trail_context: view.trail_context,
        due_date_time_utc: view.due_date_time_utc,
        overdue: view.overdue,
        context_labels: contextLabels(flow?.trail_context_schema ? this.store.dialect.parseJson<unknown>(flow.trail_context_schema) : null, view.trail_context),
      },
      step,
      may: {
        answer: acts,
        advance: acts,
        transfer: runs && running,
        cancel: runs && running,
        claim: open && actor.kind === 'person' && !mine && (assignee === null || groupOfMine),
        release: open && mine,
        assign: open && permissionAtLeast(actor.permission, 'admin'),
      },
      comments: current ? await stepComments(this.store.db, actor.accountId, view.trail_id, current.step_id) : null,
    };
  }

  /**
   * The bits reachable from the current step's connections as they are now (get_flow's walk, from the targets its
   * snapshot names), active ones only, for the likely way ahead. A last step reads nothing.
   */
  private async ahead(actor: Actor, connections: Array<{ target_bit_id: string }>): Promise<BitAhead[]> {
    const bits = await reachableFrom(this.store.db, this.store.dialect, actor.accountId, connections.map((c) => c.target_bit_id));
    return bits
      .filter((b) => b.status === 'active')
      .map((b) => ({ bit_id: b.bit_id, bit_title: b.bit_title, connections: b.connections.map((c) => ({ connection_id: c.connection_id, target_bit_id: c.target_bit_id, condition: c.condition })) }));
  }

  /** The step operation: the trail's current step as the form shows it. */
  async payload(actor: Actor, input: { trail_id: string }): Promise<StepPayload> {
    return this.of(actor, await this.trails.get(actor, input, 'slate'));
  }

  /** save_step: submit_step_data's rules, errors and access (and expected_step_id, as advance_trail's), answered with the step as it now stands. */
  async save(actor: Actor, input: { trail_id: string; data: SubmittedAnswer[]; expected_step_id?: string }): Promise<StepPayload> {
    return this.of(actor, await this.trails.submit(actor, input));
  }

  /** advance_step: advance_trail's, answered with the step the trail is now at (step null once it ended). */
  async advance(actor: Actor, input: { trail_id: string; connection_id?: string; expected_step_id?: string }): Promise<StepPayload> {
    return this.of(actor, await this.trails.advance(actor, input, 'slate'));
  }
}
