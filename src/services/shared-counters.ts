/**
 * Counters that hold across every server process on one store (issue 31: four processes allowed four times the
 * requests when each counted in its own memory). The count lives in the store (shared_counters, migration 018);
 * a call costs no round trip: each process counts in memory on top of the store's figure as last read, and adds
 * what it counted to the store every `syncMs`, reading back what all processes counted together. A key not seen
 * lately is read from the store first (a read, which waits for no writer). So a limit reached through one process
 * holds on the others within `syncMs`, and N busy processes can overshoot it by what they count in one `syncMs`
 * between them.
 */
import { addToCounter, dropEndedCounters, readCounter } from '../store/repositories/counters.repo.js';
import type { Store } from '../store/store.js';

interface Entry {
  /** The points in the store as last read, this process's included up to then. */
  stored: number;
  /** Points counted here since, not yet added to the store. */
  pending: number;
  /** Points on their way to the store (a round under way): still counted, until the store's answer has them. */
  sending: number;
  resetsAt: number;
  windowMs: number;
  readAt: number;
}

export interface Count {
  /** Points used in the window, this call's included. */
  used: number;
  /** When the window ends, in ms since the epoch. */
  resetsAt: number;
}

/** How often counted points go to the store; a limit reached elsewhere holds here within it. */
export const COUNTER_SYNC_MS = 200;
/** Ended windows are dropped from the store this often. */
const SWEEP_MS = 60_000;

export class SharedCounters {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private syncing: Promise<void> | undefined;
  private sweptAt = Date.now();

  constructor(
    private readonly store: Store,
    private readonly syncMs: number = COUNTER_SYNC_MS,
  ) {
    this.timer = setInterval(() => void this.sync(), syncMs).unref();
  }

  /** Counts `points` under `key` in a window of `windowMs`; answers the window's points so far, everywhere. */
  async consume(key: string, windowMs: number, points = 1): Promise<Count> {
    let entry = this.entries.get(key);
    const now = Date.now();
    if (!entry || now - entry.readAt > 2 * this.syncMs) {
      const stored = await readCounter(this.store.db, key, now);
      // Another call of this key may have made the entry meanwhile, and a round may have added its points to the
      // store after this read: the entry is updated in place, never below what it knows of the same window.
      entry = this.entries.get(key);
      if (!entry) {
        entry = { stored: 0, pending: 0, sending: 0, resetsAt: stored?.resetsAt ?? now + windowMs, windowMs, readAt: now };
        this.entries.set(key, entry);
      }
      if (stored && stored.resetsAt === entry.resetsAt) entry.stored = Math.max(entry.stored, stored.points);
      else if (stored && stored.resetsAt > entry.resetsAt) Object.assign(entry, { stored: stored.points, resetsAt: stored.resetsAt });
      entry.readAt = now;
    }
    if (entry.resetsAt <= now) Object.assign(entry, { stored: 0, pending: 0, resetsAt: now + windowMs });
    entry.pending += points;
    return { used: entry.stored + entry.sending + entry.pending, resetsAt: entry.resetsAt };
  }

  /** The window's points as this process last knew them, without counting or asking the store. */
  peek(key: string): Count | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.resetsAt <= Date.now()) return undefined;
    return { used: entry.stored + entry.sending + entry.pending, resetsAt: entry.resetsAt };
  }

  /** Adds what was counted here to the store and reads back every process's total. */
  sync(): Promise<void> {
    this.syncing ??= this.syncOnce().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const now = Date.now();
    for (const [key, entry] of this.entries) {
      if (entry.pending === 0) {
        // Forgotten once its window has ended: the next call reads the store again.
        if (entry.resetsAt <= now) this.entries.delete(key);
        continue;
      }
      const delta = entry.pending;
      entry.pending = 0;
      entry.sending = delta;
      try {
        const total = await addToCounter(this.store.db, key, delta, now, entry.windowMs);
        Object.assign(entry, { stored: total.points, sending: 0, resetsAt: total.resetsAt, readAt: now });
      } catch {
        // The store is away (or closing): the points wait for the next round.
        entry.pending += delta;
        entry.sending = 0;
        return;
      }
    }
    if (now - this.sweptAt > SWEEP_MS) {
      this.sweptAt = now;
      await dropEndedCounters(this.store.db, now - SWEEP_MS).catch(() => undefined);
    }
  }

  /** Stops the rounds after adding what is counted. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sync();
  }
}
