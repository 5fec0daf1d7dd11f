/**
 * Flows: the workflow templates (authoring-interface.md, "Flow", "States and transitions", create_flow,
 * update_flow) and the reading tools CONTRACT.md adds (review_flow, get_flow, list_flows).
 */
import { randomUUID } from 'node:crypto';
import { WaymarkError } from '../../errors.js';
import type { Priority, ReviewStatus } from '../../store/enums.js';
import type { BitTable, FlowTable } from '../../store/schema.js';
import { lockBit } from '../../store/repositories/bits.repo.js';
import * as repo from '../../store/repositories/flows.repo.js';
import type { Db, Store, Tx } from '../../store/store.js';
import { assertCanWriteIn, type Actor } from '../actor.js';
import { resolveScope } from '../scopes.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { readRevision } from '../revisions/read.js';
import { currentVersionGraph, graphsDiffer, parseVersionGraph } from '../revisions/flow-version.js';
import { findFlowVersion, insertFlowVersion } from '../../store/repositories/revisions.repo.js';
import { comparable } from '../revisions/compare.js';
import { currentState } from '../revisions/state.js';
import { blankToNull, checkTitle, checkTitleIfGiven } from '../bits/text-fields.js';
import { nextModified, nowIso } from '../clock.js';
import { buildFlowGraph } from './graph.js';
import type { FlowApproval, FlowView, FlowWithGraph, FlowWritten } from './shapes.js';
import { flowGraphMermaid } from './mermaid.js';
import { assertTrailContextSchema, sameSchema, type TrailContextSchema } from './trail-context-schema.js';
import { LIMITS } from '../../limits/index.js';


export interface CreateFlowInput {
  flow_title: string;
  start_bit_id: string;
  flow_description?: string | null;
  flow_categories?: string[];
  priority?: Priority;
  scope_id?: string | null;
  trail_context_schema?: Record<string, unknown> | null;
}

export interface UpdateFlowInput {
  flow_id: string;
  flow_title?: string;
  flow_description?: string | null;
  flow_categories?: string[];
  priority?: Priority;
  start_bit_id?: string | null;
  trail_context_schema?: Record<string, unknown> | null;
  is_active?: boolean;
}

export interface ListFlowsInput {
  scope_id?: string | null;
  is_active?: boolean;
  review_status?: ReviewStatus;
  priority?: Priority;
  category?: string;
  query?: string;
  cursor?: string;
  limit?: number;
}


/** Why a start bit cannot serve, in words an agent can act on. */
type StartBitProblem = 'not_found' | 'archived' | 'scope_mismatch';

const START_BIT_MESSAGES: Record<StartBitProblem, (id: string, scopeId: string | null) => string> = {
  not_found: (id) => `start_bit_id ${id} names no bit of this account: pass the id of an active bit (list_bits with status "active").`,
  archived: (id) => `start_bit_id ${id} is archived: a flow must start at an active bit; pick another or restore it (POST /api/v1/bits/{bit_id}/restore).`,
  scope_mismatch: (id, scopeId) => `start_bit_id ${id} is in another scope than the flow (${scopeId ?? 'account level'}): the start bit must share the flow's scope.`,
};

export class FlowsService {
  constructor(private readonly store: Store) {}

  /** Re-exported for archive_bit: the active flows that start at a bit. */
  static activeFlowsStartingAt(q: Db | Tx, bitId: string): Promise<string[]> {
    return repo.activeFlowsStartingAt(q, bitId);
  }

  private parse<T>(raw: unknown): T {
    return this.store.dialect.parseJson<T>(raw);
  }

  view(row: FlowTable): FlowView {
    return {
      flow_id: row.id,
      flow_title: row.title,
      flow_description: row.description,
      flow_categories: this.parse<string[]>(row.categories),
      priority: row.priority,
      scope_id: row.scope_id,
      start_bit_id: row.start_bit_id,
      trail_context_schema: row.trail_context_schema === null ? null : this.parse<TrailContextSchema>(row.trail_context_schema),
      is_active: row.is_active === 1,
      review_status: row.review_status,
      created_by: row.created_by,
      created_date_time_utc: row.created_at,
      last_modified_date_time_utc: row.updated_at,
    };
  }

  /**
   * The start bit under its row lock, so that archive_bit (which takes the same lock and then asks
   * activeFlowsStartingAt) cannot slip between this check and the flow's commit.
   */
  private async assertStartBit(tx: Tx, actor: Actor, bitId: string, scopeId: string | null): Promise<BitTable> {
    const bit = await lockBit(tx, this.store.dialect, bitId, actor);
    let problem: StartBitProblem | null = null;
    if (!bit) problem = 'not_found';
    else if (bit.status !== 'active') problem = 'archived';
    else if (bit.scope_id !== scopeId) problem = 'scope_mismatch';
    if (problem) {
      throw new WaymarkError('FLOW_START_BIT_INVALID', START_BIT_MESSAGES[problem](bitId, scopeId), { start_bit_id: bitId, reason: problem });
    }
    return bit as BitTable;
  }

  /** The flow as read for the caller (visibleTo); another account's or an invisible scope's flow is FLOW_NOT_FOUND. */
  private visibleFlow(row: FlowTable | undefined, flowId: string): FlowTable {
    if (!row) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${flowId} is visible to this token: list_flows shows the flows you can use.`, { flow_id: flowId });
    return row;
  }

  async create(actor: Actor, input: CreateFlowInput): Promise<FlowWritten> {
    checkTitle(input.flow_title, 'flow_title');
    return this.store.transaction((tx) => this.createIn(tx, actor, input));
  }

  /** create_flow in the caller's transaction; `id`: the new flow's (an import keeps its folder's). */
  async createIn(tx: Tx, actor: Actor, input: CreateFlowInput, id: string = randomUUID()): Promise<FlowWritten> {
    const scopeId = input.scope_id ?? null;
    const title = checkTitle(input.flow_title, 'flow_title');
    if (scopeId !== null) await resolveScope(tx, actor, scopeId);
    assertCanWriteIn(actor, scopeId);
    await this.assertStartBit(tx, actor, input.start_bit_id, scopeId);
    // Compiled only once the caller may write here (issue 16, finding 5).
    const schema = input.trail_context_schema ? assertTrailContextSchema(input.trail_context_schema) : null;
    const now = nowIso();
    await repo.insertFlow(tx, {
      id,
      account_id: actor.accountId,
      scope_id: scopeId,
      title,
      description: blankToNull(input.flow_description ?? null),
      categories: this.store.dialect.json(input.flow_categories ?? []),
      priority: input.priority ?? 'medium',
      start_bit_id: input.start_bit_id,
      trail_context_schema: schema === null ? null : this.store.dialect.json(schema),
      // CONTRACT.md, "Readings": a new flow is active, with review_status 'pending'.
      is_active: 1,
      review_status: 'pending',
      created_by: actor.principalId,
      created_at: now,
      updated_at: now,
    });
    await recordChange(tx, this.store.dialect, actor, { resourceType: 'flow', resourceId: id, scopeId, summary: { start_bit_id: input.start_bit_id } });
    return { flow_id: id, last_modified_date_time_utc: now };
  }

  async update(actor: Actor, input: UpdateFlowInput): Promise<FlowWritten> {
    checkTitleIfGiven(input.flow_title, 'flow_title');
    if (input.start_bit_id === null) throw startBitNull();
    return this.store.transaction((tx) => this.updateIn(tx, actor, input));
  }

  /** update_flow in the caller's transaction. */
  async updateIn(tx: Tx, actor: Actor, input: UpdateFlowInput): Promise<FlowWritten> {
    const title = checkTitleIfGiven(input.flow_title, 'flow_title');
    const newStartBitId = input.start_bit_id;
    if (newStartBitId === null) throw startBitNull();
    const flow = this.visibleFlow(await repo.lockFlow(tx, this.store.dialect, input.flow_id, actor), input.flow_id);
    assertCanWriteIn(actor, flow.scope_id);
    // Compiled only for a flow the caller may write (issue 16, finding 5: a flow id that does not exist compiled too).
    const schema = input.trail_context_schema ? assertTrailContextSchema(input.trail_context_schema) : input.trail_context_schema;
    const changes: Partial<FlowTable> = {};
    if (title !== undefined) changes.title = title;
    if (input.flow_description !== undefined) changes.description = blankToNull(input.flow_description);
    if (input.flow_categories !== undefined) changes.categories = this.store.dialect.json(input.flow_categories);
    if (input.priority !== undefined) changes.priority = input.priority;
    if (schema !== undefined) changes.trail_context_schema = schema === null ? null : this.store.dialect.json(schema);
    let startBit: BitTable | undefined;
    if (newStartBitId !== undefined) {
      startBit = await this.assertStartBit(tx, actor, newStartBitId, flow.scope_id);
      changes.start_bit_id = newStartBitId;
    }
    // What was approved is what a trail runs: where it starts and what it is started with. Changing either on an
    // approved flow sends it back to 'pending', so that the precondition of inactive → active (States and
    // transitions: review_status 'approved') holds for the flow as it now is, not as it was reviewed.
    const reviewed = flow.review_status === 'approved';
    const startMoved = changes.start_bit_id !== undefined && changes.start_bit_id !== flow.start_bit_id;
    const schemaChanged = schema !== undefined && !sameSchema(schema, flow.trail_context_schema === null ? null : this.parse<TrailContextSchema>(flow.trail_context_schema));
    if (reviewed && (startMoved || schemaChanged)) {
      changes.review_status = 'pending';
      flow.review_status = 'pending';
    }
    if (input.is_active === false) changes.is_active = 0;
    if (input.is_active === true && flow.is_active === 0) {
      // States and transitions: inactive → active needs review_status 'approved' and an active start bit.
      startBit ??= await lockBit(tx, this.store.dialect, flow.start_bit_id);
      const reasons: Array<{ reason: string; message: string }> = [];
      if (flow.review_status !== 'approved') {
        reasons.push({ reason: 'review_status_not_approved', message: `review_status is '${flow.review_status}'; an Admin approves it with review_flow (review_status "approved").` });
      }
      if (!startBit || startBit.status !== 'active') {
        reasons.push({ reason: 'start_bit_archived', message: `the start bit ${flow.start_bit_id} is archived; pass another start_bit_id or restore the bit.` });
      }
      if (reasons.length > 0) {
        throw new WaymarkError('FLOW_ACTIVATION_REFUSED', `Flow ${flow.id} stays inactive: ${reasons.map((r) => r.message).join(' Also, ')}`, { reasons });
      }
      changes.is_active = 1;
    }
    changes.updated_at = nextModified(flow.updated_at);
    await repo.updateFlow(tx, flow.id, changes);
    await recordChange(tx, this.store.dialect, actor, { resourceType: 'flow', resourceId: flow.id, scopeId: flow.scope_id, summary: { fields: fieldsGiven(input, ['flow_id']) } });
    return { flow_id: flow.id, last_modified_date_time_utc: changes.updated_at };
  }

  async review(actor: Actor, input: { flow_id: string; review_status: ReviewStatus }): Promise<FlowWritten & { review_status: ReviewStatus; is_active: boolean }> {
    return this.store.transaction(async (tx) => {
      const flow = this.visibleFlow(await repo.lockFlow(tx, this.store.dialect, input.flow_id, actor), input.flow_id);
      assertCanWriteIn(actor, flow.scope_id);
      const updated = nextModified(flow.updated_at);
      await repo.updateFlow(tx, flow.id, { review_status: input.review_status, updated_at: updated });
      if (input.review_status !== 'approved') {
        await recordChange(tx, this.store.dialect, actor, { resourceType: 'flow', resourceId: flow.id, scopeId: flow.scope_id, summary: { review_status: input.review_status } });
      } else {
        // An approval fixes a flow version: the flow's revision, its graph and each of its bits' revisions.
        const version = Number((await findFlowVersion(tx, flow.account_id, flow.id))?.version ?? 0) + 1;
        const summary = { review_status: input.review_status, flow_version: version };
        const revision = await recordChange(tx, this.store.dialect, actor, { resourceType: 'flow', resourceId: flow.id, scopeId: flow.scope_id, summary });
        const graph = await currentVersionGraph(tx, this.store.dialect, flow.account_id, flow.start_bit_id);
        await insertFlowVersion(tx, { flow_id: flow.id, version, account_id: flow.account_id, flow_revision: revision, graph: JSON.stringify(graph), approved_by: actor.principalId, created_at: updated });
      }
      return { flow_id: flow.id, review_status: input.review_status, is_active: flow.is_active === 1, last_modified_date_time_utc: updated };
    });
  }

  async get(actor: Actor, input: { flow_id: string; include_graph?: boolean; format?: 'json' | 'mermaid' }): Promise<FlowWithGraph> {
    const db = this.store.db;
    const flow = this.visibleFlow(await repo.findFlow(db, input.flow_id, actor), input.flow_id);
    const view = { ...this.view(flow), approval: await this.approval(db, flow) };
    if (!input.include_graph && input.format !== 'mermaid') return view;
    const graph = await buildFlowGraph(db, this.store.dialect, actor.accountId, flow.start_bit_id);
    return {
      ...view,
      graph: {
        bits: graph.bits,
        unreachable_bit_ids: graph.unreachable_bit_ids,
        ...(input.format === 'mermaid' ? { mermaid: flowGraphMermaid(graph) } : {}),
      },
    };
  }

  /**
   * The flow's last approved version, and whether anything changed since: the flow's fields (its review status
   * and activity aside), its graph, or a revision of one of its bits.
   */
  private async approval(db: Db, flow: FlowTable): Promise<FlowApproval | null> {
    const version = await findFlowVersion(db, flow.account_id, flow.id);
    if (!version) return null;
    const approved = await readRevision(db, flow.account_id, flow.id, version.flow_revision);
    const now = await currentState(db, this.store.dialect, flow.account_id, 'flow', flow.id);
    const fieldsChanged = !approved || !now || JSON.stringify(comparable(approved.state.fields)) !== JSON.stringify(comparable(now.fields));
    const graph = await currentVersionGraph(db, this.store.dialect, flow.account_id, flow.start_bit_id);
    return {
      version: Number(version.version),
      approved_by: version.approved_by,
      approved_date_time_utc: version.created_at,
      changed_since: fieldsChanged || graphsDiffer(parseVersionGraph(version.graph), graph),
    };
  }

  async list(actor: Actor, input: ListFlowsInput): Promise<{ flows: FlowView[]; next_cursor: string | null }> {
    if (typeof input.scope_id === 'string') await resolveScope(this.store.db, actor, input.scope_id);
    const category = input.category;
    const page = await repo.listFlows(
      this.store.db,
      { accountId: actor.accountId, scopeId: actor.scopeId },
      { scopeId: input.scope_id, isActive: input.is_active, reviewStatus: input.review_status, priority: input.priority, category, query: input.query },
      { limit: input.limit ?? LIMITS.defaultPageSize, cursor: input.cursor },
      (row) => category === undefined || this.parse<string[]>(row.categories).includes(category),
    );
    return { flows: page.rows.map((r) => this.view(r)), next_cursor: page.next_cursor };
  }
}

function startBitNull(): WaymarkError {
  return new WaymarkError('FLOW_START_BIT_INVALID', 'start_bit_id cannot be unset: a flow always has a start bit. Pass the id of an active bit in the flow\'s scope, or omit start_bit_id.', {
    start_bit_id: null,
    reason: 'null',
  });
}
