/**
 * `waymark audit verify` (issue 26): walks an account's events in order and checks that they number 1, 2, 3, …
 * without a gap, that each names the previous one's hash, and that each one's hash is its fields' hash. It names
 * every break, the first one first: an event edited behind the server's back, or one removed. The last events
 * removed together leave no trace in the rest: compare the head it prints with one noted earlier.
 */
import { eventsAfter } from '../../store/repositories/events.repo.js';
import type { Store } from '../../store/store.js';
import { eventHash } from './chain.js';

export interface ChainProblem {
  kind: 'missing' | 'edited';
  /** The seq of the missing event, or of the edited one. */
  seq: number;
  /** The edited event's id; for a missing one, the id of the event found after the gap. */
  eventId: string;
  message: string;
}

export interface ChainReport {
  ok: boolean;
  /** Events read. */
  count: number;
  head: { seq: number; hash: string } | null;
  problems: ChainProblem[];
}

const PAGE = 1000;

export class AuditService {
  constructor(private readonly store: Store) {}

  async verify(accountId: string): Promise<ChainReport> {
    const problems: ChainProblem[] = [];
    let expectedSeq = 1;
    let prevHash: string | null = null;
    let count = 0;
    let head: ChainReport['head'] = null;
    for (let after = 0; ; ) {
      const rows = await eventsAfter(this.store.db, accountId, after, PAGE);
      for (const row of rows) {
        const seq = Number(row.seq);
        count++;
        if (seq !== expectedSeq) {
          const missing = seq - expectedSeq === 1 ? `event ${expectedSeq} is` : `events ${expectedSeq} to ${seq - 1} are`;
          problems.push({ kind: 'missing', seq: expectedSeq, eventId: row.id, message: `${missing} missing: the chain goes from event ${expectedSeq - 1} to event ${seq} (${row.id})` });
        } else if (row.prev_hash !== prevHash) {
          // In order, yet not linked to the event before: that one's hash, or this one's prev_hash, was rewritten.
          problems.push({ kind: 'edited', seq: seq - 1, eventId: row.id, message: `event ${seq} (${row.id}) does not follow event ${seq - 1}: one of them was edited` });
        }
        if (eventHash(row) !== row.hash) {
          problems.push({ kind: 'edited', seq, eventId: row.id, message: `event ${seq} (${row.id}) was edited: its fields no longer match its hash` });
        }
        expectedSeq = seq + 1;
        prevHash = row.hash;
        head = { seq, hash: row.hash };
      }
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1]?.seq);
    }
    return { ok: problems.length === 0, count, head, problems };
  }
}
