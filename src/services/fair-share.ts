/**
 * Who a conversion thread works for, and how many threads one token and one account may hold (issue 24, "a tenant
 * gets a fair share"). The threads are few (one per core) and shared by every account: without a bound, one
 * account's parallel add_bit of large bodies, or reads of large bits, held them all and every other account's
 * large call waited behind its queue.
 *
 * A tool call runs as its caller (`asCaller`, set once by the operation pipeline, operations/operation.ts); the conversion pool asks
 * `onThreads` before it sends a task to a thread, so a conversion (a body converted on a write) or a heavy read (a
 * large body printed, read or encoded on a read) takes a slot of its token and of its account first. The caller is
 * carried by AsyncLocalStorage rather than through every service method's arguments, since only the pool reads it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { processQuotas, type Quotas } from '../quotas.js';
import { AccountGate } from './account-gate.js';

export interface Caller {
  accountId: string;
  /** The credential the call came with (a hash, never the secret), for per-token limits. */
  credential: string;
  /** When the call arrived at its door (arrivals.ts). */
  arrival?: number;
}

export type ThreadWork = 'conversions' | 'heavy_reads';

const callers = new AsyncLocalStorage<Caller>();

export function asCaller<T>(caller: Caller, work: () => T): T {
  return callers.run(caller, work);
}

export function currentCaller(): Caller | undefined {
  return callers.getStore();
}

class FairShare {
  private readonly gates: Record<ThreadWork, { token: AccountGate; account: AccountGate }>;

  constructor(quotas: Quotas) {
    const gates = (what: ThreadWork, perToken: number, perAccount: number) => ({
      token: new AccountGate(what.replace('_', ' '), perToken, quotas.waitingPerAccount, { noun: 'token', limit: `concurrent_${what}_per_token` }),
      account: new AccountGate(what.replace('_', ' '), perAccount, quotas.waitingPerAccount, { noun: 'account', limit: `concurrent_${what}_per_account` }),
    });
    this.gates = {
      conversions: gates('conversions', quotas.conversionsPerToken, quotas.conversionsPerAccount),
      heavy_reads: gates('heavy_reads', quotas.heavyReadsPerToken, quotas.heavyReadsPerAccount),
    };
  }

  /** `work` once the caller's token and then its account have a free slot; a call with no caller (the CLI, a test) runs at once. */
  run<T>(kind: ThreadWork, work: () => Promise<T>, caller = currentCaller()): Promise<T> {
    if (!caller) return work();
    const gate = this.gates[kind];
    return gate.token.run(caller.credential, () => gate.account.run(caller.accountId, work));
  }
}

let share: FairShare | undefined;

export function onThreads<T>(kind: ThreadWork, work: () => Promise<T>, caller?: Caller): Promise<T> {
  share ??= new FairShare(processQuotas());
  return share.run(kind, work, caller);
}

/**
 * `work` with no caller: what runs inside a transaction does not wait for its account's turn, since while it
 * waited it would hold the transaction's locks (on SQLite the one writer of the process) against every account.
 */
export function inTransaction<T>(work: () => T): T {
  return callers.exit(work);
}
