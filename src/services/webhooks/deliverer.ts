/**
 * The webhook deliverer (issue 29): in every serving process, on either engine. The outbox is the event log: each
 * endpoint keeps a cursor over its account's events, so an event committed with its change is delivered after
 * the commit, at least once, per endpoint in the order the events happened. An endpoint is worked by one deliverer
 * at a time under a lease (webhooks.repo.ts); its cursor moves only past an event delivered (2xx) or not for it
 * (another scope, a type it did not subscribe to). A failed head event is retried with exponential backoff and
 * jitter for more than a day while the endpoint's later events wait; one endpoint's failures hold up no other.
 * After an hour of failing the endpoint is `failing` (an event says so); when the retries are spent it is
 * `disabled` until an Admin enables it again, which resumes from the same event.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { eventsAfter } from '../../store/repositories/events.repo.js';
import * as repo from '../../store/repositories/webhooks.repo.js';
import type { EventTable, WebhookEndpointTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { asOperation } from '../events/operation-context.js';
import { operatorOf, recordChange } from '../events/record.js';
import { subscribed } from './event-types.js';
import type { WebhooksService } from './webhooks.service.js';

/** Seconds before each retry of a failed event: about 32 hours in all. */
export const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800, 28_800] as const;
/** How long a head event fails before its endpoint is marked failing. */
const FAILING_AFTER_MS = 3600_000;

export interface DelivererOptions {
  /** How often a deliverer looks for endpoints with work. */
  pollMs: number;
  /** How long a lease holds an endpoint without being renewed. */
  leaseMs: number;
  /** Endpoints worked at once by one deliverer. */
  concurrency: number;
  /** Multiplies every backoff and the failing threshold (tests shorten a day to seconds). */
  retryScale: number;
}

export function delivererOptionsFromEnv(env: NodeJS.ProcessEnv): DelivererOptions {
  return {
    pollMs: Number(env.WAYMARK_WEBHOOK_POLL_MS ?? 1000),
    leaseMs: Number(env.WAYMARK_WEBHOOK_LEASE_MS ?? 60_000),
    concurrency: 4,
    retryScale: Number(env.WAYMARK_WEBHOOK_RETRY_SCALE ?? 1),
  };
}

const PAGE = 100;

export class WebhookDeliverer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly webhooks: WebhooksService,
    private readonly options: DelivererOptions,
    private readonly logger?: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.running = this.tick()
        .catch((err: unknown) => this.logger?.error({ err }, 'webhook delivery round failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.options.pollMs).unref();
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round: every endpoint with work now that no other deliverer holds, a few at a time. */
  async tick(): Promise<void> {
    const due = await repo.dueEndpoints(this.store.db, new Date().toISOString(), this.options.concurrency * 4);
    const queue = [...due];
    const workers = Array.from({ length: Math.min(this.options.concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next && !this.stopped; next = queue.shift()) await this.hold(next.id);
    });
    await Promise.all(workers);
  }

  private async hold(id: string): Promise<void> {
    const leaseId = randomUUID();
    const now = Date.now();
    if (!(await repo.takeLease(this.store.db, id, leaseId, new Date(now).toISOString(), new Date(now + this.options.leaseMs).toISOString()))) return;
    try {
      await this.work(id, leaseId);
    } finally {
      await repo.updateUnderLease(this.store.db, id, leaseId, { lease_id: null, leased_until: null });
    }
  }

  /** Sends the endpoint's events after its cursor, in order, until one fails or none are left. */
  private async work(id: string, leaseId: string): Promise<void> {
    const endpoint = await repo.endpointById(this.store.db, id);
    if (!endpoint || endpoint.status === 'disabled') return;
    const types = JSON.parse(endpoint.event_types) as string[];
    let cursor = Number(endpoint.cursor_seq);
    let moved = false;
    const save = async (changes: Partial<WebhookEndpointTable>, fromStatus?: WebhookEndpointTable['status']) =>
      repo.updateUnderLease(this.store.db, id, leaseId, { ...changes, leased_until: this.leaseEnd() }, fromStatus);
    pages: for (;;) {
      const events = await eventsAfter(this.store.db, endpoint.account_id, cursor, PAGE);
      if (events.length === 0) break;
      for (const event of events) {
        // A stopping deliverer (a server's clean stop) ends between two events, not after the whole backlog: the
        // cursor is saved after each, so the next deliverer goes on from there with nothing lost or sent twice.
        if (this.stopped) break pages;
        const type = this.forEndpoint(endpoint, types, event);
        if (type === null) {
          cursor = Number(event.seq);
          moved = true;
          continue;
        }
        if (moved && !(await save({ cursor_seq: cursor }))) return;
        moved = false;
        const attempt = Number(endpoint.head_attempts) + 1;
        const row = await this.webhooks.attempt(endpoint, event, type, attempt);
        if (row.outcome === 'delivered') {
          cursor = Number(event.seq);
          const recovered = endpoint.status === 'failing';
          // The log row and the cursor in one commit (one fsync on the embedded store, not two); the row is kept
          // even if the lease was lost meanwhile (the event was sent), the cursor only under the lease.
          const held = await this.store.transaction(async (tx) => {
            await repo.insertDelivery(tx, row);
            return repo.updateUnderLease(tx, id, leaseId, { cursor_seq: cursor, head_attempts: 0, head_failing_since: null, next_attempt_at: null, leased_until: this.leaseEnd() });
          });
          if (!held) return;
          // Back from failing, unless an Admin disabled it meanwhile.
          if (recovered) await save({ status: 'active', failing_since: null }, 'failing');
          Object.assign(endpoint, { head_attempts: 0, head_failing_since: null, status: recovered ? 'active' : endpoint.status });
          continue;
        }
        await repo.insertDelivery(this.store.db, row);
        await this.failed(endpoint, attempt, save);
        return;
      }
      if (events.length < PAGE) break;
    }
    if (moved) await save({ cursor_seq: cursor });
  }

  private leaseEnd(): string {
    return new Date(Date.now() + this.options.leaseMs).toISOString();
  }

  /** The webhook type of the event if this endpoint receives it: its account's (the cursor reads no other), its scope's, a type it subscribed to. */
  private forEndpoint(endpoint: WebhookEndpointTable, types: readonly string[], event: EventTable): string | null {
    if (endpoint.scope_id !== null && event.scope_id !== endpoint.scope_id) return null;
    const type = this.webhooks.typeOf(event);
    return type !== null && subscribed(types, type) ? type : null;
  }

  private async failed(endpoint: WebhookEndpointTable, attempt: number, save: (changes: Partial<WebhookEndpointTable>, fromStatus?: WebhookEndpointTable['status']) => Promise<boolean>): Promise<void> {
    const now = Date.now();
    const since = endpoint.head_failing_since ?? new Date(now).toISOString();
    const spent = attempt > BACKOFF_SECONDS.length;
    const delaySeconds = BACKOFF_SECONDS[Math.min(attempt, BACKOFF_SECONDS.length) - 1] ?? 0;
    const jitter = 0.8 + Math.random() * 0.4;
    const next = new Date(now + delaySeconds * 1000 * this.options.retryScale * jitter).toISOString();
    const failing = endpoint.status === 'active' && now - Date.parse(since) >= FAILING_AFTER_MS * this.options.retryScale;
    const status = spent ? 'disabled' : failing ? 'failing' : endpoint.status;
    if (!(await save({ head_attempts: attempt, head_failing_since: since, next_attempt_at: spent ? null : next }))) return;
    if (status === endpoint.status) return;
    // The status it read before sending: an Admin's change made meanwhile (disable, enable) is not undone.
    const changed = await save({ status, ...(endpoint.failing_since === null ? { failing_since: new Date(now).toISOString() } : {}) }, endpoint.status);
    if (changed) await this.announce(endpoint, status, attempt);
  }

  /** An endpoint that turned failing or was disabled is an event of its account: the Activity page and history show it. */
  private async announce(endpoint: WebhookEndpointTable, status: 'active' | 'failing' | 'disabled', attempts: number): Promise<void> {
    await asOperation(status === 'disabled' ? 'webhook_disabled' : 'webhook_failing', () =>
      this.store.transaction((tx) =>
        recordChange(tx, this.store.dialect, operatorOf(endpoint.account_id), { resourceType: 'webhook', resourceId: endpoint.id, scopeId: endpoint.scope_id, summary: { status, attempts } }),
      ),
    );
    this.logger?.warn({ webhook_id: endpoint.id, status, attempts }, 'webhook endpoint failing');
  }
}
