/**
 * get_revision, diff_revisions and restore_revision (issue 26): a bit, flow or reference as it was at any of its
 * revisions, what changed between two of them (a flow: since its approved version, its bits too), and a restore
 * that writes an old revision again through the resource's own update, every rule, limit and error of it applying.
 * Visibility follows the resource: what the caller may read now, in its own account.
 */
import { WaymarkError } from '../../errors.js';
import { collectConnections, type SlateBody } from '../../content/index.js';
import { connectionsFrom } from '../../store/repositories/connections.repo.js';
import { eventOfRevision } from '../../store/repositories/events.repo.js';
import { findFlowVersion, firstRevision, flowVersionAt, latestRevision, resourceVisible } from '../../store/repositories/revisions.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import type { BitsService } from '../bits/bits.service.js';
import { readBodyOffThread } from '../convert/pool.js';
import type { FlowsService } from '../flows/flows.service.js';
import type { ReferencesService } from '../references/references.service.js';
import type { RevisionState } from './codec.js';
import { changesBetween, type DiffSide } from './diff.js';
import { currentVersionGraph, parseVersionGraph, type VersionGraph } from './flow-version.js';
import { readRevision, type ReadRevision } from './read.js';
import { bitRowOf, flowRowOf, referenceRowOf } from './rows.js';
import type { BitChanges, FlowBitChange, RestoredRevision, RevisionDiff, RevisionView } from './shapes.js';
import type { RevisedType } from './state.js';

export interface RevisionInput {
  resource_type: RevisedType;
  resource_id: string;
  revision: number;
}

const NOT_FOUND = { bit: 'BIT_NOT_FOUND', flow: 'FLOW_NOT_FOUND', reference: 'REFERENCE_NOT_FOUND' } as const;

function notFound(type: RevisedType, id: string): WaymarkError {
  return new WaymarkError(NOT_FOUND[type], `No ${type} ${id} is visible to this token: check the id and resource_type.`, { [`${type}_id`]: id });
}

export class RevisionsService {
  constructor(
    private readonly store: Store,
    private readonly bits: BitsService,
    private readonly flows: FlowsService,
    private readonly references: ReferencesService,
  ) {}

  /** The resource's latest revision, if the actor may see the resource; else its type's not-found error. */
  private async latest(actor: Actor, type: RevisedType, id: string): Promise<number> {
    const db = this.store.db;
    const head = await latestRevision(db, actor.accountId, id);
    if (!head || head.resource_type !== type || !(await resourceVisible(db, type, id, actor))) throw notFound(type, id);
    return Number(head.revision);
  }

  private async read(actor: Actor, type: RevisedType, id: string, revision: number, latest: number): Promise<ReadRevision> {
    const read = revision <= latest ? await readRevision(this.store.db, actor.accountId, id, revision) : null;
    if (read) return read;
    const first = (await firstRevision(this.store.db, actor.accountId, id)) ?? latest;
    throw new WaymarkError(
      'REVISION_NOT_FOUND',
      `${type} ${id} has no revision ${revision}: its revisions run from ${first} to ${latest} (list_history with resource_id lists them).`,
      { resource_id: id, revision, first_revision: first, latest_revision: latest },
    );
  }

  async get(actor: Actor, input: RevisionInput & { format?: 'markdown' | 'slate' }): Promise<RevisionView> {
    const { resource_type: type, resource_id: id } = input;
    const latest = await this.latest(actor, type, id);
    const read = await this.read(actor, type, id, input.revision, latest);
    const event = await eventOfRevision(this.store.db, actor.accountId, type, id, input.revision);
    const view: RevisionView = {
      resource_type: type,
      resource_id: id,
      revision: input.revision,
      latest_revision: latest,
      revised_date_time_utc: read.created_at,
      changed_by: event ? { principal_id: event.principal_id, principal_kind: event.principal_kind, client_name: event.client_name, operation: event.operation } : null,
    };
    if (type === 'bit') {
      const { row, references } = bitRowOf(id, actor.accountId, read.state);
      view.bit = await this.bits.viewOf(row, references, input.format ?? 'markdown');
    } else if (type === 'flow') view.flow = this.flows.view(flowRowOf(id, actor.accountId, read.state));
    else view.reference = this.references.view(referenceRowOf(id, actor.accountId, read.state));
    return view;
  }

  async diff(actor: Actor, input: { resource_type: RevisedType; resource_id: string; from?: number; to?: number }): Promise<RevisionDiff> {
    const { resource_type: type, resource_id: id } = input;
    const latest = await this.latest(actor, type, id);
    const to = input.to ?? latest;
    let from = input.from;
    let fromVersion: number | null = null;
    if (from === undefined && type === 'flow') {
      const approved = await findFlowVersion(this.store.db, actor.accountId, id);
      if (approved && Number(approved.flow_revision) <= to) {
        from = Number(approved.flow_revision);
        fromVersion = Number(approved.version);
      }
    }
    from ??= Math.max(to - 1, (await firstRevision(this.store.db, actor.accountId, id)) ?? to);
    const before = await this.read(actor, type, id, from, latest);
    const after = await this.read(actor, type, id, to, latest);
    const changes = await this.changes(type, before.state, after.state);
    const diff: RevisionDiff = { resource_type: type, resource_id: id, from_revision: from, to_revision: to, ...changes };
    if (type === 'flow') {
      const fromGraph = await this.graphAt(actor, id, from, latest, before.state);
      const toGraph = await this.graphAt(actor, id, to, latest, after.state);
      fromVersion ??= fromGraph?.version ?? null;
      diff.from_version = fromVersion;
      diff.graph = fromGraph && toGraph ? await this.graphDiff(actor, fromGraph.graph, toGraph.graph) : null;
    }
    return diff;
  }

  /** What changed between two states of one resource: a bit's or reference's body read as markdown, a flow's fields. */
  private async changes(type: RevisedType, before: RevisionState, after: RevisionState): Promise<BitChanges> {
    return changesBetween(await this.side(type, before), await this.side(type, after));
  }

  private async side(type: RevisedType, state: RevisionState): Promise<DiffSide> {
    if (type === 'flow') return { fields: state.fields, markdown: null, elements: [], connections: [] };
    const read = await readBodyOffThread({ children: state.nodes } as SlateBody);
    return { fields: state.fields, markdown: read.body, elements: read.elements, connections: read.connections };
  }

  /** A flow revision's graph, where one is known: the flow now (its latest revision), or an approved version's. */
  private async graphAt(actor: Actor, flowId: string, revision: number, latest: number, state: RevisionState): Promise<{ graph: VersionGraph; version: number | null } | null> {
    if (revision === latest) {
      const startBitId = String(state.fields.start_bit_id);
      return { graph: await currentVersionGraph(this.store.db, this.store.dialect, actor.accountId, startBitId), version: null };
    }
    const version = await flowVersionAt(this.store.db, actor.accountId, flowId, revision);
    return version ? { graph: parseVersionGraph(version.graph), version: Number(version.version) } : null;
  }

  private async graphDiff(actor: Actor, from: VersionGraph, to: VersionGraph): Promise<NonNullable<RevisionDiff['graph']>> {
    const bits: FlowBitChange[] = [];
    for (const [bitId, revision] of Object.entries(to.bits)) {
      const old = from.bits[bitId];
      if (old === undefined) bits.push({ bit_id: bitId, bit_title: to.titles[bitId] ?? bitId, change: 'added', from_revision: null, to_revision: revision });
      else if (old !== revision) {
        const before = await readRevision(this.store.db, actor.accountId, bitId, old);
        const after = await readRevision(this.store.db, actor.accountId, bitId, revision);
        const diff = before && after ? await this.changes('bit', before.state, after.state) : undefined;
        bits.push({ bit_id: bitId, bit_title: to.titles[bitId] ?? bitId, change: 'changed', from_revision: old, to_revision: revision, ...(diff ? { diff } : {}) });
      }
    }
    for (const [bitId, revision] of Object.entries(from.bits)) {
      if (to.bits[bitId] === undefined) bits.push({ bit_id: bitId, bit_title: from.titles[bitId] ?? bitId, change: 'removed', from_revision: revision, to_revision: null });
    }
    const key = (c: VersionGraph['connections'][number]) => JSON.stringify([c.connection_id, c.source_bit_id, c.target_bit_id, c.label]);
    const oldKeys = new Set(from.connections.map(key));
    const newKeys = new Set(to.connections.map(key));
    return {
      bits,
      connections: { added: to.connections.filter((c) => !oldKeys.has(key(c))), removed: from.connections.filter((c) => !newKeys.has(key(c))) },
    };
  }

  async restore(actor: Actor, input: RevisionInput): Promise<RestoredRevision> {
    const { resource_type: type, resource_id: id } = input;
    const latest = await this.latest(actor, type, id);
    const { state } = await this.read(actor, type, id, input.revision, latest);
    let written: { last_modified_date_time_utc: string };
    let notRestored: string[];
    if (type === 'bit') {
      const { row } = bitRowOf(id, actor.accountId, state);
      const body = row.body as SlateBody;
      // A connection removed since comes back as a new one (its old id is gone with its mirror row).
      const rows = new Set((await connectionsFrom(this.store.db, actor.accountId, [id])).map((r) => r.id));
      for (const node of collectConnections(body)) if (node.id !== null && !rows.has(node.id)) node.id = null;
      written = await this.bits.update(actor, {
        bit_id: id,
        bit_title: row.title,
        bit_abstract: row.abstract ?? '',
        bit_description: row.description ?? '',
        bit_categories: row.categories as string[],
        complexity: row.complexity,
        human_required: row.human_required === 1,
        bit_body: body.children,
        content_format: 'slate',
      });
      notRestored = ['references', 'status'];
    } else if (type === 'flow') {
      const row = flowRowOf(id, actor.accountId, state);
      written = await this.flows.update(actor, {
        flow_id: id,
        flow_title: row.title,
        flow_description: row.description,
        flow_categories: row.categories as string[],
        priority: row.priority,
        start_bit_id: row.start_bit_id,
        trail_context_schema: (row.trail_context_schema ?? null) as Record<string, unknown> | null,
      });
      notRestored = ['review_status', 'is_active'];
    } else {
      const row = referenceRowOf(id, actor.accountId, state);
      written = await this.references.update(actor, {
        reference_id: id,
        reference_title: row.title,
        reference_abstract: row.abstract,
        reference_categories: row.categories as string[],
        reference_content: row.content,
      });
      notRestored = ['is_active'];
    }
    const now = await latestRevision(this.store.db, actor.accountId, id);
    return {
      resource_type: type,
      resource_id: id,
      restored_revision: input.revision,
      revision: Number(now?.revision ?? latest),
      last_modified_date_time_utc: written.last_modified_date_time_utc,
      not_restored: notRestored,
    };
  }
}
