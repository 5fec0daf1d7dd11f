/**
 * What the fault test expects the store to hold: every acknowledged write applied in order, nothing of a
 * refused one. Each client owns the records it creates and writes them one call at a time, so the
 * expected state of a record is exact; the only uncertainty is the one call per client that was in
 * flight at a kill, which the verifier settles against the store (see verify.ts).
 */
import type { SlateBody } from '../../src/content/index.js';
import type { Store } from '../../src/store/store.js';

export interface ElementModel {
  /** null until the verifier reads the id of an element created by a call whose answer was lost. */
  id: string | null;
  type: string;
  label: string | null;
  items: Array<{ id: string | null; text: string }>;
}

export interface ConnectionModel {
  /** null for a connection written as a body line (the answer names no connection ids) until verified. */
  id: string | null;
  target: string;
}

export interface LinkModel {
  id: string | null;
  referenceId: string;
  label: string | null;
}

export interface BitModel {
  id: string;
  owner: number;
  /** Pinned bits are never archived: start bits of flows and safe targets. */
  pinned: boolean;
  /**
   * Has had a connection to another client's bit that may be archived: that client's archive_bit cascade can
   * advance this bit's timestamp at a moment no answer of ours orders, so updated_at is only a lower bound.
   */
  exposed: boolean;
  title: string;
  abstract: string | null;
  categories: string[];
  complexity: string;
  status: 'active' | 'archived';
  /** The last acknowledged last_modified_date_time_utc; with `exact` false only a lower bound (after a cascade). */
  updatedAt: string;
  exact: boolean;
  elements: ElementModel[];
  connections: ConnectionModel[];
  links: LinkModel[];
}

export interface FlowModel {
  id: string;
  owner: number;
  title: string;
  description: string | null;
  priority: string;
  categories: string[];
  startBitId: string;
  active: boolean;
  /** Whether start_trail needs trail_context.customer. */
  needsCustomer: boolean;
  updatedAt: string;
}

export interface ReferenceModel {
  id: string;
  owner: number;
  title: string;
  categories: string[];
  active: boolean;
  updatedAt: string;
}

export interface TrailModel {
  id: string;
  owner: number;
  flowId: string;
  title: string;
  /** The start bit's text-area as the trail's snapshot holds it; null when unknown. */
  notesId: string | null;
  /** The first item of the start bit's check-list, answered now and then as CheckListItem. */
  itemId: string | null;
  answers: Array<{ elementId: string; value: unknown }>;
}

export class Model {
  readonly bits = new Map<string, BitModel>();
  readonly flows = new Map<string, FlowModel>();
  readonly references = new Map<string, ReferenceModel>();
  readonly trails = new Map<string, TrailModel>();
  /** Connection ids that an acknowledged write removed: remove_connection on them must be refused. */
  readonly removedConnections: string[] = [];
  /** Markers (unique titles and answer values) of refused writes: none may appear in the store. */
  readonly refusedMarkers: string[] = [];

  bitsOf(owner: number): BitModel[] {
    return [...this.bits.values()].filter((b) => b.owner === owner);
  }
  flowsOf(owner: number): FlowModel[] {
    return [...this.flows.values()].filter((f) => f.owner === owner);
  }
  referencesOf(owner: number): ReferenceModel[] {
    return [...this.references.values()].filter((r) => r.owner === owner);
  }
  trailsOf(owner: number): TrailModel[] {
    return [...this.trails.values()].filter((t) => t.owner === owner);
  }
  /** Active pinned bits of every client: the targets any client may connect to. */
  pinnedBits(): BitModel[] {
    return [...this.bits.values()].filter((b) => b.pinned && b.status === 'active');
  }
  isArchived(bitId: string): boolean {
    return this.bits.get(bitId)?.status === 'archived';
  }
  activeFlowsStartingAt(bitId: string): FlowModel[] {
    return [...this.flows.values()].filter((f) => f.active && f.startBitId === bitId);
  }
  referenceLinked(referenceId: string): boolean {
    return [...this.bits.values()].some((b) => b.links.some((l) => l.referenceId === referenceId));
  }

  /** archive_bit acknowledged (or found applied): the bit's connections and every connection to it go. */
  applyArchive(bit: BitModel, updatedAt: string): void {
    for (const c of bit.connections) if (c.id) this.removedConnections.push(c.id);
    bit.connections = [];
    bit.status = 'archived';
    bit.updatedAt = updatedAt;
    bit.exact = true;
    for (const other of this.bits.values()) {
      if (other === bit || !other.connections.some((c) => c.target === bit.id)) continue;
      for (const c of other.connections) if (c.target === bit.id && c.id) this.removedConnections.push(c.id);
      other.connections = other.connections.filter((c) => c.target !== bit.id);
      // The cascade advanced the source's timestamp to a value no answer reported.
      other.exact = false;
    }
  }
}

/** The store's rows of the test account, read once the clients are quiet. */
export interface Snapshot {
  bits: Map<string, { id: string; title: string; abstract: string | null; categories: string[]; complexity: string; status: string; updated_at: string; body: SlateBody; bodyError: string | null }>;
  connections: Array<{ id: string; source_bit_id: string; target_bit_id: string; sort_order: number }>;
  links: Array<{ id: string; bit_id: string; reference_id: string; display_label: string | null; position: number }>;
  flows: Map<string, { id: string; title: string; description: string | null; priority: string; categories: string[]; start_bit_id: string; is_active: number; updated_at: string }>;
  references: Map<string, { id: string; title: string; categories: string[]; is_active: number; updated_at: string }>;
  trails: Map<string, { id: string; flow_id: string; title: string | null }>;
  answers: Array<{ trail_id: string; element_id: string; value: unknown }>;
}

export async function readSnapshot(store: Store, accountId: string): Promise<Snapshot> {
  const { db, dialect } = store;
  const bitRows = await db.selectFrom('bits').selectAll().where('account_id', '=', accountId).execute();
  const bits: Snapshot['bits'] = new Map();
  for (const r of bitRows) {
    let body: SlateBody = { children: [] };
    let bodyError: string | null = null;
    try {
      body = dialect.parseJson<SlateBody>(r.body);
      if (!body || !Array.isArray(body.children)) throw new Error('not a Slate body object');
    } catch (error) {
      bodyError = (error as Error).message;
      body = { children: [] };
    }
    bits.set(r.id, {
      id: r.id,
      title: r.title,
      abstract: r.abstract,
      categories: dialect.parseJson<string[]>(r.categories),
      complexity: r.complexity,
      status: r.status,
      updated_at: r.updated_at,
      body,
      bodyError,
    });
  }
  const connections = await db.selectFrom('connections').select(['id', 'source_bit_id', 'target_bit_id', 'sort_order']).where('account_id', '=', accountId).execute();
  const links = await db.selectFrom('bit_reference_links').select(['id', 'bit_id', 'reference_id', 'display_label', 'position']).where('account_id', '=', accountId).execute();
  const flowRows = await db.selectFrom('flows').selectAll().where('account_id', '=', accountId).execute();
  const flows: Snapshot['flows'] = new Map(flowRows.map((f) => [f.id, { ...f, categories: dialect.parseJson<string[]>(f.categories) }]));
  const referenceRows = await db.selectFrom('library_references').select(['id', 'title', 'categories', 'is_active', 'updated_at']).where('account_id', '=', accountId).execute();
  const references: Snapshot['references'] = new Map(referenceRows.map((r) => [r.id, { ...r, categories: dialect.parseJson<string[]>(r.categories) }]));
  const trailRows = await db.selectFrom('trails').select(['id', 'flow_id', 'title']).where('account_id', '=', accountId).execute();
  const trails: Snapshot['trails'] = new Map(trailRows.map((t) => [t.id, t]));
  const answerRows = await db
    .selectFrom('trail_answers as a')
    .innerJoin('trails as t', 't.id', 'a.trail_id')
    .select(['a.trail_id', 'a.element_id', 'a.value'])
    .where('t.account_id', '=', accountId)
    .execute();
  const answers = answerRows.map((a) => ({ trail_id: a.trail_id, element_id: a.element_id, value: dialect.parseJson<{ value: unknown }>(a.value)?.value }));
  return { bits, connections, links, flows, references, trails, answers };
}
