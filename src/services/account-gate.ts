/**
 * Per-holder fairness for expensive work (issue 16, finding 4; issue 24): twelve searches of one account held every
 * connection of PostgreSQL's pool, and another account's get_bit waited 78 s. A holder (an account, or a token)
 * runs at most `running` of them at once; the next `waiting` wait in line (holding nothing) and are let in first
 * come, first served; beyond that the call is refused at once with TOO_MANY_REQUESTS, so that neither the line nor
 * its memory grows without bound. Per process, as the pool and the conversion threads are.
 */
import { WaymarkError } from '../errors.js';

interface Line {
  running: number;
  waiting: Array<() => void>;
}

/** The wait a refused call is told to make before trying again: one running call's time, at most. */
const RETRY_AFTER_SECONDS = 1;

export class AccountGate {
  private readonly lines = new Map<string, Line>();

  constructor(
    private readonly what: string,
    private readonly running: number,
    private readonly waiting: number,
    /** Who holds the slots, as the refusal names it, and the limit's name in its details. */
    private readonly holder: { noun: 'account' | 'token'; limit: string } = { noun: 'account', limit: `concurrent_${what}_per_account` },
  ) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) {
      line = { running: 0, waiting: [] };
      this.lines.set(key, line);
    }
    if (line.running < this.running) {
      line.running++;
    } else if (line.waiting.length < this.waiting) {
      // The slot is handed over by the call that ends (below), so `running` does not change.
      await new Promise<void>((resolve) => line.waiting.push(resolve));
    } else {
      throw new WaymarkError(
        'TOO_MANY_REQUESTS',
        `This ${this.holder.noun} already runs ${this.running} ${this.what} at once and ${this.waiting} more wait; retry in ${RETRY_AFTER_SECONDS} s, or when one has answered.`,
        { limit: this.holder.limit, max_running: this.running, max_waiting: this.waiting, retry_after_seconds: RETRY_AFTER_SECONDS },
      );
    }
    try {
      return await work();
    } finally {
      const next = line.waiting.shift();
      // Handed over on the next turn of the event loop, not in this one: on SQLite a search never waits for
      // I/O (the driver is synchronous), so ten searches in line would otherwise run back to back and hold
      // every other request (/healthz 211 ms for ten searches of 1.7 MB references).
      if (next) setImmediate(next);
      else if (--line.running === 0) this.lines.delete(key);
    }
  }
}
