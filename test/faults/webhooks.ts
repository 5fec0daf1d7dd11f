/**
 * The fault test's webhook run (issue 29): an endpoint subscribed to `*`, made before the load, whose receiver (in
 * this process, verifying every request with the `standardwebhooks` library) answers 500 to a random share of
 * requests through the load, while the servers that deliver to it are killed. After the last restart the receiver
 * accepts every request and the deliverer is let drain (with the receiver still failing, each failure costs a poll
 * and a backoff, and the drain took several times as long); then every event a `*` subscription must get (the account's events after the subscription, of a webhook
 * type) must have been accepted at least once, every acknowledged write's event among them; nothing may have
 * arrived that is not such an event (a refused write leaves none: events.ts holds the log against the writes); and
 * each event must have come only after every earlier one was accepted (per endpoint in order).
 *
 * A killed server's lease on the endpoint would hold it for a minute (the deliverer's lease, renewed at each
 * delivery): once the killed process has exited, the run ends that lease as the clock would, so that deliveries
 * go on through the whole load instead of mostly in the drain.
 */
import type { Actor } from '../../src/services/actor.js';
import { WebhooksService } from '../../src/services/webhooks/webhooks.service.js';
import type { Store } from '../../src/store/store.js';
import { checkArrivals, subscribedEvents, WebhookReceiver } from '../webhook-receiver.js';
import type { Random } from './worker.js';

export interface WebhookFaultOptions {
  /** The share of requests answered 500. */
  failRate: number;
  /** How long the deliverer may take to drain after the last restart. */
  drainMs?: number;
}

export interface WebhookFaultReport {
  fail_rate: number;
  /** Events the subscription had to get, and of them the acknowledged writes' (matched by events.ts). */
  events_expected: number;
  acknowledged_events: number;
  requests: number;
  answered_500: number;
  accepted: number;
  /** Events accepted more than once (sent again after a kill cut the deliverer off before it moved its cursor). */
  accepted_again: number;
  /** Expected events never accepted; acknowledged writes' events among them. */
  missing: number;
  acknowledged_missing: number;
  /** Arrivals of no expected event (a refused write's, another account's, a type never sent). */
  unknown: number;
  out_of_order: number;
  unverified: number;
  max_in_flight: number;
  /** Leases of killed servers ended by the run (see above). */
  leases_ended: number;
  /** Endpoint-failing and -disabled events the deliverers recorded. */
  endpoint_status_events: number;
  /** Expected events not yet accepted when the drain began, and how long it took. */
  outstanding_at_drain: number;
  drain_ms: number;
  problems: string[];
}

/** What the servers need in their environment to deliver to this machine, fast. */
export const WEBHOOK_SERVER_ENV = { WAYMARK_WEBHOOK_ALLOW_LOOPBACK: '1', WAYMARK_WEBHOOK_POLL_MS: '20', WAYMARK_WEBHOOK_RETRY_SCALE: '0.001' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class WebhookFaultRun {
  private leasesEnded = 0;
  private outstanding = -1;

  private constructor(
    private readonly store: Store,
    private readonly accountId: string,
    private readonly receiver: WebhookReceiver,
    readonly webhookId: string,
    private readonly options: WebhookFaultOptions,
  ) {}

  /** The receiver and the subscription, made before the load (its event is the setup's). */
  static async start(store: Store, accountId: string, owner: Actor, rnd: Random, options: WebhookFaultOptions): Promise<WebhookFaultRun> {
    const receiver = await new WebhookReceiver().start();
    const url = receiver.endpoint('faults', () => (rnd.chance(options.failRate) ? 500 : 204));
    const service = new WebhooksService(store, { allowLoopback: true, allowPrivate: false });
    const made = await service.create(owner, { url, event_types: ['*'], description: 'fault run' });
    receiver.setSecret('faults', made.secret);
    return new WebhookFaultRun(store, accountId, receiver, made.webhook_id, options);
  }

  /** After a server has exited (killed or stopped), before the next starts: its lease, if any, ends. */
  async serverGone(): Promise<void> {
    const result = await this.store.db.updateTable('webhook_endpoints').set({ lease_id: null, leased_until: null }).where('id', '=', this.webhookId).where('lease_id', 'is not', null).executeTakeFirst();
    this.leasesEnded += Number(result.numUpdatedRows);
  }

  /** With a server up after the last restart: the receiver accepts all, and this waits until every expected event was accepted, or the time is up. */
  async drain(): Promise<number> {
    this.receiver.setAnswer('faults', () => 204);
    const started = Date.now();
    const deadline = started + (this.options.drainMs ?? 120_000);
    for (;;) {
      const expected = await subscribedEvents(this.store, this.accountId, this.webhookId, ['*']);
      const accepted = new Set(this.receiver.of('faults').filter((a) => a.verified && a.status < 300).map((a) => a.id));
      if (this.outstanding < 0) this.outstanding = expected.filter((e) => !accepted.has(e.id)).length;
      if (expected.every((e) => accepted.has(e.id)) || Date.now() > deadline) return Date.now() - started;
      await sleep(100);
    }
  }

  /** Once every server is stopped: the arrivals against the events, and the acknowledged writes' events among them. */
  async report(acknowledgedEventIds: readonly string[], drainMs: number): Promise<WebhookFaultReport> {
    const expected = await subscribedEvents(this.store, this.accountId, this.webhookId, ['*']);
    const arrivals = this.receiver.of('faults');
    const found = checkArrivals(arrivals, expected);
    const accepted = new Set(arrivals.filter((a) => a.verified && a.status < 300).map((a) => a.id));
    const expectedIds = new Set(expected.map((e) => e.id));
    const acknowledgedMissing = acknowledgedEventIds.filter((id) => !accepted.has(id));
    const notExpected = acknowledgedEventIds.filter((id) => !expectedIds.has(id));
    const statusEvents = await this.store.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('account_id', '=', this.accountId)
      .where('operation', 'in', ['webhook_failing', 'webhook_disabled'])
      .executeTakeFirst();
    const problems = [
      ...(drainMs > (this.options.drainMs ?? 120_000) ? [`webhooks: not drained within ${this.options.drainMs ?? 120_000} ms of the last restart`] : []),
      ...acknowledgedMissing.map((id) => `webhooks: the acknowledged write's event ${id} was never accepted`),
      ...notExpected.map((id) => `webhooks: the acknowledged write's event ${id} is not one a * subscription gets`),
      ...found.missing.map((m) => `webhooks: ${m}`),
      ...found.unknown.map((m) => `webhooks: ${m}`),
      ...found.out_of_order.map((m) => `webhooks: ${m}`),
      ...(found.unverified > 0 ? [`webhooks: ${found.unverified} requests did not verify`] : []),
      ...(found.max_in_flight > 1 ? [`webhooks: ${found.max_in_flight} requests of the endpoint were in flight at once`] : []),
    ];
    return {
      fail_rate: this.options.failRate,
      events_expected: expected.length,
      acknowledged_events: acknowledgedEventIds.length,
      requests: found.requests,
      answered_500: arrivals.filter((a) => a.status === 500).length,
      accepted: found.accepted,
      accepted_again: found.accepted_twice,
      missing: found.missing.length,
      acknowledged_missing: acknowledgedMissing.length + notExpected.length,
      unknown: found.unknown.length,
      out_of_order: found.out_of_order.length,
      unverified: found.unverified,
      max_in_flight: found.max_in_flight,
      leases_ended: this.leasesEnded,
      endpoint_status_events: Number(statusEvents?.n ?? 0),
      outstanding_at_drain: this.outstanding,
      drain_ms: drainMs,
      problems,
    };
  }

  async close(): Promise<void> {
    await this.receiver.close();
  }
}

/** The count of violations in a report: run.ts fails on any. */
export function webhookViolations(r: WebhookFaultReport): number {
  return r.acknowledged_missing + r.missing + r.unknown + r.out_of_order + r.unverified + (r.max_in_flight > 1 ? 1 : 0) + (r.problems.length > 0 ? 1 : 0);
}
