/**
 * Live updates for the app (issue 27): each serving process keeps its people's open streams (GET /api/v1/live) and
 * ONE poller over the store, shared by every stream, so what a write does through any process (another worker, another
 * machine on the same PostgreSQL) reaches a person connected to this one within a poll. Each round is two batched
 * reads for every connected person (their newest notification and unread count) and one for every connected account
 * (its newest event number), plus one read of the trails' scopes for an account that changed; never a query per
 * stream. No poll runs while no stream is open.
 *
 * It sends:
 * - `notifications` {unread_count, latest_id}: on connecting, and whenever a person's unread count or newest
 *   notification changed (a new one, or some read in another tab or process);
 * - `inbox` {seq}: when a trail the person can see changed (an event on a trail of their account, in a scope they see).
 *
 * Streams are bounded per person and per process (LIMITS.liveStreamsPerPerson, liveStreamsPerProcess), live at most
 * LIMITS.liveStreamMs (the browser then reconnects, authenticating again), carry a heartbeat comment so proxies keep
 * them open, and are ended by close() on shutdown, so a server's close never waits on them.
 */
import type { Logger } from 'pino';
import { LIMITS } from '../../limits/index.js';
import type { Actor } from '../../services/actor.js';
import { eventHeads, notificationHeads, trailChangeScopes } from '../../store/repositories/person-notifications.repo.js';
import type { Store } from '../../store/store.js';

export interface LiveOptions {
  /** How often the poller reads the store while a stream is open (default 1000 ms). */
  pollMs: number;
  /** How often an idle stream gets a comment line, so proxies do not close it (default 15 s). */
  heartbeatMs: number;
}

export const DEFAULT_LIVE_OPTIONS: LiveOptions = { pollMs: 1000, heartbeatMs: 15_000 };

/** WAYMARK_LIVE_POLL_MS and WAYMARK_LIVE_HEARTBEAT_MS, for `waymark serve` (tests poll faster). */
export function liveOptionsFromEnv(env: NodeJS.ProcessEnv): LiveOptions {
  const ms = (name: string, fallback: number) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 50 || value > 600_000) throw new Error(`${name} must be a whole number of milliseconds from 50 to 600000 (got ${text})`);
    return value;
  };
  return { pollMs: ms('WAYMARK_LIVE_POLL_MS', DEFAULT_LIVE_OPTIONS.pollMs), heartbeatMs: ms('WAYMARK_LIVE_HEARTBEAT_MS', DEFAULT_LIVE_OPTIONS.heartbeatMs) };
}

/** Where a stream's events go: the HTTP response, as the route adapts it. */
export interface LiveSink {
  /** Writes one server-sent event (or, with event null, a comment line). */
  write(event: string | null, data: unknown): void;
  /** Ends the response. */
  end(): void;
}

/** Why a stream was not opened, in words for the person and the status to answer. */
export interface LiveRefusal {
  refused: 'person' | 'process' | 'closed';
  message: string;
}

interface Stream {
  actor: Pick<Actor, 'accountId' | 'scopeId' | 'principalId'>;
  sink: LiveSink;
  /** Whether it was told the current notification state yet (a new stream is, at the next round). */
  primed: boolean;
  expires: NodeJS.Timeout;
}

export class LiveHub {
  private readonly streams = new Set<Stream>();
  private readonly notified = new Map<string, { latestId: number; unread: number }>();
  private readonly seqs = new Map<string, number>();
  private poller: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly options: LiveOptions = DEFAULT_LIVE_OPTIONS,
  ) {}

  /** How many streams are open (all, or one person's). */
  count(principalId?: string): number {
    if (principalId === undefined) return this.streams.size;
    let n = 0;
    for (const s of this.streams) if (s.actor.principalId === principalId) n++;
    return n;
  }

  /** Opens a stream for the actor; answers a function that removes it (call it when the client goes away), or why not. */
  open(actor: Stream['actor'], sink: LiveSink): { remove: () => void } | LiveRefusal {
    if (this.closed) return { refused: 'closed', message: 'The server is stopping: reconnect in a moment.' };
    if (this.streams.size >= LIMITS.liveStreamsPerProcess) {
      return { refused: 'process', message: 'This server has as many live connections as it takes: the app reconnects by itself in a minute; meanwhile reload to see changes.' };
    }
    if (this.count(actor.principalId) >= LIMITS.liveStreamsPerPerson) {
      return {
        refused: 'person',
        message: `You have ${LIMITS.liveStreamsPerPerson} windows receiving live updates already: close one of them; this one reconnects by itself in a minute.`,
      };
    }
    const stream: Stream = { actor, sink, primed: false, expires: setTimeout(() => this.remove(stream, true), LIMITS.liveStreamMs) };
    stream.expires.unref();
    this.streams.add(stream);
    this.start();
    // The new stream's first state comes with the next round; start one now rather than wait a whole period.
    this.schedule(0);
    return { remove: () => this.remove(stream, false) };
  }

  /** Ends every stream and stops polling; opening one afterwards is refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stream of [...this.streams]) this.remove(stream, true);
    this.stop();
    await this.round;
  }

  private remove(stream: Stream, end: boolean): void {
    if (!this.streams.delete(stream)) return;
    clearTimeout(stream.expires);
    if (end) stream.sink.end();
    if (this.streams.size === 0) {
      this.notified.clear();
      this.seqs.clear();
      this.stop();
      return;
    }
    // Forget whom no stream listens for any more; a person or account still listening keeps what is known of them.
    const principals = new Set([...this.streams].map((s) => s.actor.principalId));
    const accounts = new Set([...this.streams].map((s) => s.actor.accountId));
    for (const id of this.notified.keys()) if (!principals.has(id)) this.notified.delete(id);
    for (const id of this.seqs.keys()) if (!accounts.has(id)) this.seqs.delete(id);
  }

  private start(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const s of this.streams) s.sink.write(null, 'keep-alive');
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poller) clearTimeout(this.poller);
    this.heartbeat = null;
    this.poller = null;
  }

  /** The next round in `delay` ms; rounds never overlap (a slow store delays the next one instead). */
  private schedule(delay: number): void {
    if (this.closed || this.streams.size === 0) return;
    if (this.poller) clearTimeout(this.poller);
    this.poller = setTimeout(() => {
      this.poller = null;
      if (this.round) {
        this.schedule(this.options.pollMs);
        return;
      }
      this.round = this.poll()
        .catch((error: unknown) => this.logger.warn({ err: error }, 'live updates: reading the store failed; trying again next round'))
        .finally(() => {
          this.round = null;
          this.schedule(this.options.pollMs);
        });
    }, delay);
    this.poller.unref();
  }

  private async poll(): Promise<void> {
    const streams = [...this.streams];
    if (streams.length === 0) return;
    const principals = [...new Set(streams.map((s) => s.actor.principalId))];
    const accounts = [...new Set(streams.map((s) => s.actor.accountId))];
    const [heads, seqs] = await Promise.all([notificationHeads(this.store.db, principals), eventHeads(this.store.db, accounts)]);

    for (const principalId of principals) {
      const head = heads.get(principalId) ?? { latestId: 0, unread: 0 };
      const before = this.notified.get(principalId);
      const changed = !before || before.latestId !== head.latestId || before.unread !== head.unread;
      this.notified.set(principalId, head);
      for (const s of streams) {
        if (s.actor.principalId !== principalId || !this.streams.has(s)) continue;
        if (changed || !s.primed) s.sink.write('notifications', { unread_count: head.unread, latest_id: head.latestId === 0 ? null : String(head.latestId) });
        s.primed = true;
      }
    }

    for (const accountId of accounts) {
      const seq = seqs.get(accountId) ?? 0;
      const before = this.seqs.get(accountId);
      this.seqs.set(accountId, seq);
      // The first round for an account only learns where it stands: the app read its inbox when it opened.
      if (before === undefined || seq <= before) continue;
      const scopes = await trailChangeScopes(this.store.db, accountId, before, seq);
      if (scopes.length === 0) continue;
      for (const s of streams) {
        if (s.actor.accountId !== accountId || !this.streams.has(s)) continue;
        // A person limited to a scope sees that scope's trails and the account level's (store/visibility.ts).
        const sees = s.actor.scopeId === null || scopes.some((scope) => scope === null || scope === s.actor.scopeId);
        if (sees) s.sink.write('inbox', { seq });
      }
    }
  }
}
