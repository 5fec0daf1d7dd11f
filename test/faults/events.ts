/**
 * The event log against the writes (issue 26), after each restart: every acknowledged write has its event, a
 * write in flight at the kill has one if it was found applied and none if found absent, and no event names a write
 * that did not happen (a refused one, one never made) or a record that is not in the store. Each client writes one
 * call at a time with a principal of its own, so its events, in the account's order, are its writes in order. The
 * account's hash chain must verify (AuditService), each resource's revisions must run 1, 2, 3, …, and each event
 * of a bit, flow or reference must have its revision kept (migration 014).
 * Only the events after the run's setup (the account and the clients' tokens) are the load's. The webhook
 * deliverers' own events (an endpoint marked failing or disabled: resource `webhook`, by no principal) are theirs,
 * not the load's: they are left out of the match with the writes.
 */
import { AuditService } from '../../src/services/events/audit.service.js';
import { eventsAfter } from '../../src/store/repositories/events.repo.js';
import type { EventTable } from '../../src/store/schema.js';
import type { Store } from '../../src/store/store.js';
import type { Snapshot } from './model.js';
import type { ExpectedEvent, Worker } from './worker.js';

export interface EventFindings {
  /** Events read (those after the setup). */
  checked: number;
  /** A write that was acknowledged or found applied, and has no event. */
  missing: string[];
  /** An event that no acknowledged or applied write accounts for, or whose record is not in the store. */
  orphans: string[];
  /** The chain, the revisions, the order of a client's events. */
  invariants: string[];
}

const PAGE = 5000;

/** Reads the events appended since its last check, so that each is checked once over a run. */
export class EventChecker {
  private afterSeq: number;
  /** How many of each client's expected events earlier checks matched. */
  private readonly matched = new Map<number, number>();
  private readonly revisions = new Map<string, number>();
  /** The ids of the events matched to acknowledged writes, over the run (the webhook run checks each arrived). */
  readonly acknowledgedEventIds: string[] = [];

  /** `principals`: each client's principal id, by client index. `setupSeq`: the last event before the load. */
  constructor(
    private readonly store: Store,
    private readonly accountId: string,
    private readonly principals: Map<string, number>,
    setupSeq: number,
  ) {
    this.afterSeq = setupSeq;
  }

  /** After verify() settled the writes in flight (so their events are expected or not), against the same snapshot. */
  async check(workers: Worker[], s: Snapshot): Promise<EventFindings> {
    const out: EventFindings = { checked: 0, missing: [], orphans: [], invariants: [] };
    const rows: EventTable[] = [];
    for (let after = this.afterSeq; ; ) {
      const page = await eventsAfter(this.store.db, this.accountId, after, PAGE);
      rows.push(...page);
      if (page.length < PAGE) break;
      after = Number(page[page.length - 1].seq);
    }
    out.checked = rows.length;
    const records: Record<string, Map<string, unknown> | undefined> = { bit: s.bits, flow: s.flows, reference: s.references, trail: s.trails };
    const byClient = new Map<number, EventTable[]>(workers.map((w) => [w.index, []]));
    for (const row of rows) {
      if (isDelivererEvent(row)) continue;
      const client = row.principal_id === null ? undefined : this.principals.get(row.principal_id);
      if (client === undefined) out.orphans.push(`${describe(row)} by ${row.principal_kind} ${row.principal_id ?? ''}: no client of the run made it`);
      else byClient.get(client)?.push(row);
      const key = `${row.resource_type} ${row.resource_id}`;
      const revision = (this.revisions.get(key) ?? 0) + 1;
      if (row.revision === null || Number(row.revision) !== revision) out.invariants.push(`${describe(row)}: revision ${row.revision}, expected ${revision}`);
      this.revisions.set(key, row.revision === null ? revision : Number(row.revision));
    }
    for (const w of workers) {
      const from = this.matched.get(w.index) ?? 0;
      this.matched.set(w.index, w.events.length);
      matchClient(w.index, w.events.slice(from), byClient.get(w.index) ?? [], (row) => records[row.resource_type]?.has(row.resource_id) === true, out, this.acknowledgedEventIds);
    }
    await this.checkRevisions(rows, out);
    const last = rows.at(-1);
    if (last) this.afterSeq = Number(last.seq);
    const chain = await new AuditService(this.store).verify(this.accountId);
    for (const p of chain.problems) out.invariants.push(`chain: ${p.message}`);
    if (last && chain.head?.seq !== Number(last.seq)) out.invariants.push(`chain: its head is event ${chain.head?.seq}, the last event read ${last.seq}`);
    return out;
  }

  /** Each event of a bit, flow or reference has its revision kept (the state after it), in its transaction. */
  private async checkRevisions(rows: EventTable[], out: EventFindings): Promise<void> {
    const revised = rows.filter((r) => r.resource_type === 'bit' || r.resource_type === 'flow' || r.resource_type === 'reference');
    const ids = [...new Set(revised.map((r) => r.resource_id))];
    const kept = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const found = await this.store.db
        .selectFrom('revisions')
        .select(['resource_id', 'revision'])
        .where('account_id', '=', this.accountId)
        .where('resource_id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const f of found) kept.add(`${f.resource_id} ${Number(f.revision)}`);
    }
    for (const row of revised) {
      if (!kept.has(`${row.resource_id} ${Number(row.revision)}`)) out.invariants.push(`${describe(row)}: no revision ${row.revision} kept`);
    }
  }
}

/**
 * One client's events since the last check against its writes since then: each expected event takes the first
 * unmatched event of the same operation and resource; what is left on either side is missing or an orphan.
 */
function matchClient(client: number, expected: ExpectedEvent[], events: EventTable[], stored: (row: EventTable) => boolean, out: EventFindings, acknowledged: string[]): void {
  const left = [...events];
  const taken: EventTable[] = [];
  for (const e of expected) {
    const i = left.findIndex((row) => row.operation === e.operation && row.resource_type === e.type && (e.id === null || row.resource_id === e.id));
    if (i >= 0) {
      const [row] = left.splice(i, 1) as [EventTable];
      taken.push(row);
      if (e.how === 'acknowledged') acknowledged.push(row.id);
    }
    else if (!e.optional) out.missing.push(`client ${client}: ${e.operation} of ${e.type} ${e.id} (${e.how}) has no event`);
  }
  for (const row of left) out.orphans.push(`${describe(row)} by client ${client}: no acknowledged or applied write of the client accounts for it`);
  // Matched, yet naming a record the store does not hold: the write's record is lost (verify says so), or never was.
  for (const row of taken) if (!stored(row)) out.orphans.push(`${describe(row)} by client ${client}: that ${row.resource_type} is not in the store`);
  // The client waited for each answer before its next call, so its events are in the order of its writes.
  if (taken.some((row, i) => i > 0 && Number(row.seq) < Number(taken[i - 1].seq))) out.invariants.push(`client ${client}: its events are not in the order of its writes`);
}

/** An endpoint marked failing or disabled by a webhook deliverer (deliverer.ts): no write of the load's. */
function isDelivererEvent(row: EventTable): boolean {
  return row.resource_type === 'webhook' && row.principal_id === null && (row.operation === 'webhook_failing' || row.operation === 'webhook_disabled');
}

function describe(row: EventTable): string {
  return `event ${row.seq} (${row.operation} of ${row.resource_type} ${row.resource_id})`;
}
