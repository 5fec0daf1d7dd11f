/** One revision of a resource, as it was: its last full revision and the deltas after it, applied (codec.ts). */
import { revisionChain } from '../../store/repositories/revisions.repo.js';
import type { Db, Tx } from '../../store/store.js';
import { decodeChain, type RevisionState } from './codec.js';

export interface ReadRevision {
  state: RevisionState;
  resource_type: string;
  created_at: string;
}

/** The revision, or null when this account's resource has no such revision. */
export async function readRevision(q: Db | Tx, accountId: string, resourceId: string, revision: number): Promise<ReadRevision | null> {
  const chain = await revisionChain(q, accountId, resourceId, revision);
  const last = chain.at(-1);
  return last ? { state: await decodeChain(chain), resource_type: last.resource_type, created_at: last.created_at } : null;
}
