/**
 * Keeps a bit's, flow's or reference's state after an accepted change as its next revision, inside the change's
 * transaction, and answers its number, which the change's event carries: recordChange (events/record.ts) calls it,
 * so every change that has an event has its revision, and none without. Stored as a delta against the revision
 * before when that is cheaper to read (codec.ts). The writer holds the resource's row lock (every writer of a bit,
 * flow or reference takes it), so no other writer numbers a revision of it meanwhile; the account's event chain is
 * not held during this work.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { insertRevision, latestRevision, revisionChain } from '../../store/repositories/revisions.repo.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import type { Tx } from '../../store/store.js';
import { decodeChain, encodeRevision } from './codec.js';
import { currentState, type RevisedType } from './state.js';

export async function keepRevision(tx: Tx, dialect: StoreDialect, accountId: string, type: RevisedType, id: string, at: string): Promise<number> {
  const head = await latestRevision(tx, accountId, id);
  const revision = (head ? Number(head.revision) : 0) + 1;
  const state = await currentState(tx, dialect, accountId, type, id);
  if (!state) return revision;
  // A large body was just parsed on the event loop: let others in before the next large step.
  if (state.nodes.length > 256) await yieldToEventLoop();
  let previous = null;
  if (head) {
    const chain = await revisionChain(tx, accountId, id, Number(head.revision));
    if (chain.length > 0) previous = { state: await decodeChain(chain), chain_bytes: Number(head.chain_bytes) };
    if (state.nodes.length > 256) await yieldToEventLoop();
  }
  const stored = await encodeRevision(state, previous);
  await insertRevision(tx, { resource_id: id, revision, resource_type: type, account_id: accountId, created_at: at, ...stored });
  return revision;
}
