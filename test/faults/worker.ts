/**
 * One client of the fault test's load: it writes its own records one call at a time and records each
 * write as acknowledged, refused or unknown (in flight when the server died). The writes themselves
 * are in ops.ts.
 */
import type { Envelope } from '../harness.js';
import { ProtocolFault, type RemoteClient } from './client.js';
import type { BitModel, Model, Snapshot } from './model.js';

/** What the verifier found of a write whose answer was lost: applied, absent, or something else entirely. */
export type Resolution = 'applied' | 'absent' | { violation: string };

export interface PendingWrite {
  client: number;
  tool: string;
  resolve(snapshot: Snapshot): Resolution;
}

/** What the load's events name (issue 26): a link is its bit's change, an answer its trail's. */
export type ResourceType = 'bit' | 'flow' | 'reference' | 'trail';

/** The resource whose event an accepted write appends, for events.ts to find. */
export interface EventSpec<T> {
  type: ResourceType;
  /** Known before the call, or (a create) read from the answer: an in-flight create found applied is found by its marker, its title. */
  id: string | ((data: T) => string);
  /** An accepted write that changed nothing records nothing (archive_bit of an archived bit). */
  unless?: (data: T) => boolean;
}

/** An event that a client's write must have appended, in the order of the client's writes. */
export interface ExpectedEvent {
  operation: string;
  type: ResourceType;
  /** null: a create in flight whose record the verifier could not single out. */
  id: string | null;
  /** In flight at a kill and settled as neither applied nor absent (a violation already): its event may or may not be there. */
  optional: boolean;
  how: 'acknowledged' | 'in flight, found applied' | 'in flight, unsettled';
}

export type Outcome = 'acknowledged' | 'refused' | 'unknown';

export interface JournalEntry {
  client: number;
  tool: string;
  args: Record<string, unknown>;
  outcome: Outcome;
  /** Ids and timestamps of an acknowledged write; the code of a refused one. */
  result?: Record<string, unknown>;
  code?: string;
}

/** Counts and the journal of every write of a run, shared by its workers. */
export class Tally {
  readonly counts: Record<Outcome, number> = { acknowledged: 0, refused: 0, unknown: 0 };
  readonly byTool: Record<string, Record<Outcome, number>> = {};
  /** Answers the load did not expect: a refusal of a write that should pass, a transport failure without a kill. */
  readonly surprises: string[] = [];
  readonly journal: JournalEntry[] = [];

  record(entry: JournalEntry): void {
    this.counts[entry.outcome]++;
    const tool = (this.byTool[entry.tool] ??= { acknowledged: 0, refused: 0, unknown: 0 });
    tool[entry.outcome]++;
    this.journal.push(entry);
  }
}

/** mulberry32: a seeded generator, so a run's choices can be replayed from its seed. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

/** Thrown to end a worker's phase: the server is gone. */
export class Interrupted extends Error {}

export interface WriteSpec<T> {
  /** The code the write must be refused with; omitted when it must succeed. */
  refuse?: string;
  /** Codes that a race with another client's write can rightly cause (a target archived meanwhile). */
  tolerate?: string[];
  /** The unique title or answer that this write would store: after a refusal it must appear nowhere. */
  marker?: string;
  ack?: (data: T) => void;
  /** For a write whose answer was lost: find in the store whether it happened, and if so apply it to the model. */
  resolve?: (snapshot: Snapshot) => Resolution;
  /**
   * The resource its event names. A write without one must append none: a write that must succeed and has no
   * `event` finds its event reported as an orphan.
   */
  event?: EventSpec<T>;
}

export class Worker {
  pending: PendingWrite | null = null;
  /** The events this client's acknowledged and applied writes must have appended, in order (events.ts reads them). */
  readonly events: ExpectedEvent[] = [];
  private seq = 0;
  private client: RemoteClient | null = null;
  private stopped: () => boolean = () => true;

  constructor(
    readonly index: number,
    readonly model: Model,
    readonly tally: Tally,
    readonly rnd: Random,
    private readonly tag: string,
  ) {}

  /** A unique marker for the next write's title or answer. */
  marker(): string {
    return `${this.tag}-c${this.index}-n${++this.seq}`;
  }

  ownBits(): BitModel[] {
    return this.model.bitsOf(this.index);
  }
  activeBits(): BitModel[] {
    return this.ownBits().filter((b) => b.status === 'active');
  }
  archivedBits(): BitModel[] {
    return this.ownBits().filter((b) => b.status === 'archived');
  }
  /** Own active bits, every client's pinned bits and, with `foreign`, other clients' bits that they may archive. */
  connectionTargets(foreign: boolean): BitModel[] {
    const all = [...this.model.bits.values()].filter((b) => b.status === 'active');
    return all.filter((b) => b.owner === this.index || b.pinned || foreign);
  }
  /** Another client's bit that it may archive at any moment. */
  isForeign(bitId: string): boolean {
    const bit = this.model.bits.get(bitId);
    return bit !== undefined && bit.owner !== this.index && !bit.pinned;
  }
  hasForeignConnections(bit: BitModel): boolean {
    return bit.connections.some((c) => this.isForeign(c.target));
  }

  /** Runs writes until `stopped()` or until the server disappears. */
  async runPhase(client: RemoteClient, stopped: () => boolean, step: (w: Worker) => Promise<void>): Promise<void> {
    this.client = client;
    this.stopped = stopped;
    try {
      while (!stopped()) await step(this);
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
    } finally {
      this.client = null;
    }
  }

  async read<T>(tool: string, args: Record<string, unknown>): Promise<T> {
    this.assertRunning();
    let envelope: Envelope<T>;
    try {
      envelope = await this.call<T>(tool, args);
    } catch (error) {
      this.transportFailed(tool, error);
      throw new Interrupted();
    }
    if (!envelope.success) {
      this.tally.surprises.push(`client ${this.index}: ${tool} ${JSON.stringify(args)} refused ${envelope.error?.code}: ${envelope.error?.message}`);
      throw new Interrupted();
    }
    return envelope.data as T;
  }

  async write<T extends Record<string, unknown>>(tool: string, args: Record<string, unknown>, spec: WriteSpec<T>): Promise<void> {
    this.assertRunning();
    const journalArgs = shorten(args);
    let envelope: Envelope<T>;
    try {
      envelope = await this.call<T>(tool, args);
    } catch (error) {
      this.transportFailed(tool, error);
      this.tally.record({ client: this.index, tool, args: journalArgs, outcome: 'unknown' });
      // A write that had to be refused must have left nothing whatever its fate: its marker joins the refused ones.
      if (spec.refuse && spec.marker) this.model.refusedMarkers.push(spec.marker);
      const resolve = spec.refuse || !spec.resolve ? () => 'absent' as const : spec.resolve;
      this.pending = { client: this.index, tool, resolve: (s) => this.settled(tool, spec, s, resolve(s)) };
      throw new Interrupted();
    }
    if (envelope.success) {
      const data = envelope.data as T;
      this.tally.record({ client: this.index, tool, args: journalArgs, outcome: 'acknowledged', result: idsOf(data) });
      if (spec.refuse) this.tally.surprises.push(`client ${this.index}: ${tool} ${JSON.stringify(journalArgs)} should be refused with ${spec.refuse} but was acknowledged`);
      else {
        spec.ack?.(data);
        const event = spec.event;
        if (event && !event.unless?.(data)) {
          this.events.push({ operation: tool, type: event.type, id: typeof event.id === 'string' ? event.id : event.id(data), optional: false, how: 'acknowledged' });
        }
      }
      return;
    }
    const error = envelope.error;
    this.tally.record({ client: this.index, tool, args: journalArgs, outcome: 'refused', code: error?.code });
    if (spec.marker) this.model.refusedMarkers.push(spec.marker);
    if (error?.code !== spec.refuse && !spec.tolerate?.includes(error?.code ?? '')) {
      this.tally.surprises.push(`client ${this.index}: ${tool} ${JSON.stringify(journalArgs)} expected ${spec.refuse ?? 'success'}, refused ${error?.code}: ${error?.message}`);
    }
  }

  /** A write in flight at the kill, settled against the store: found applied, it must have its event; found absent, none. */
  private settled<T>(tool: string, spec: WriteSpec<T>, s: Snapshot, resolution: Resolution): Resolution {
    const event = spec.event;
    if (!event || resolution === 'absent') return resolution;
    const id = typeof event.id === 'string' ? event.id : createdId(s, event.type, spec.marker);
    const applied = resolution === 'applied' && id !== null;
    this.events.push({ operation: tool, type: event.type, id, optional: !applied, how: applied ? 'in flight, found applied' : 'in flight, unsettled' });
    return resolution;
  }

  /** A phase that is over sends nothing more: a call never sent is neither acknowledged nor unknown. */
  private assertRunning(): void {
    if (!this.client || this.stopped()) throw new Interrupted();
  }

  private async call<T>(tool: string, args: Record<string, unknown>): Promise<Envelope<T>> {
    return (this.client as RemoteClient).call<T>(tool, args);
  }

  private transportFailed(tool: string, error: unknown): void {
    if (error instanceof ProtocolFault || !this.stopped()) {
      this.tally.surprises.push(`client ${this.index}: ${tool} failed while the server was up: ${(error as Error).message}`);
    }
  }
}

/** The record an in-flight create made, found by its title (the write's marker), if exactly one holds it. */
function createdId(s: Snapshot, type: ResourceType, title: string | undefined): string | null {
  const rows = { bit: s.bits, flow: s.flows, reference: s.references, trail: s.trails }[type];
  const found = [...rows.values()].filter((r) => title !== undefined && r.title === title);
  return found.length === 1 ? found[0].id : null;
}

/** Bodies grow with every edit; the journal keeps their beginning. */
function shorten(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === 'string' && v.length > 240 ? `${v.slice(0, 240)}…(${v.length} chars)` : v;
  return out;
}

/** The ids and timestamps of an answer (a trail view is large; its scalar fields are enough). */
function idsOf(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) if (typeof v !== 'object' || (k === 'minted_node_ids' && v !== null)) out[k] = v;
  return out;
}
