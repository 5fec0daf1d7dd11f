/**
 * One event per accepted change (issue 26), appended by the service that makes the change inside its own
 * transaction, so that the change and its event commit or roll back together: a refused write leaves none.
 * Call it last in the transaction (after the change's own locks): it takes the account's chain lock and holds it
 * to the commit, so taken earlier it would hold every other writer of the account behind this one's work.
 * A write that changes nothing (archive_bit of an archived bit, revoking a revoked key) records nothing.
 */
import { randomUUID } from 'node:crypto';
import { chainHead, insertEvent, lockChain, resourceChanges } from '../../store/repositories/events.repo.js';
import type { EventActorKind, EventResourceType } from '../../store/enums.js';
import type { StoreDialect } from '../../store/dialects/dialect.js';
import type { Tx } from '../../store/store.js';
import { nowIso } from '../clock.js';
import { keepRevision } from '../revisions/keep.js';
import { isRevised } from '../revisions/state.js';
import { eventHash } from './chain.js';
import { currentOperation } from './operation-context.js';

/** Who made a change: an Actor is one (its token id and OAuth client name where it has them). */
export interface ChangeAuthor {
  accountId: string;
  principalId: string | null;
  kind: EventActorKind;
  tokenId?: string | null;
  clientName?: string | null;
}

/** A summary holds a few ids, names and counts: never a body, an answer or a secret. */
export type ChangeSummary = Record<string, string | number | boolean | null | string[]>;

export interface Change {
  resourceType: EventResourceType;
  resourceId: string;
  /** The resource's scope (null: account level): what history's visibility follows. */
  scopeId: string | null;
  summary?: ChangeSummary;
}

/** A registered client names itself (registration is open): its name is kept to this many characters. */
const CLIENT_NAME_CHARS = 200;

/** The fields of an input a call set (its id fields left out): what an update's event names as changed. */
export function fieldsGiven(input: object, ids: readonly string[]): string[] {
  return Object.entries(input).filter(([key, value]) => value !== undefined && !ids.includes(key)).map(([key]) => key).sort();
}

/** The operator at the server's command line (`waymark token create …`): no principal, no token. */
export function operatorOf(accountId: string): ChangeAuthor {
  return { accountId, principalId: null, kind: 'operator' };
}

/** Appends the change's event (and keeps its revision); answers the resource's new revision number. */
export async function recordChange(tx: Tx, dialect: StoreDialect, by: ChangeAuthor & { operator?: true }, change: Change): Promise<number> {
  const accountId = by.accountId;
  // The command line's operator acts through the services as an actor (actor.ts operatorActor); it is no principal.
  const author = by.operator ? operatorOf(accountId) : by;
  // A bit's, flow's or reference's change keeps its state as its next revision (revisions/keep.ts), numbered
  // under the resource's own row lock, before the account's chain lock is taken.
  const kept = isRevised(change.resourceType) ? await keepRevision(tx, dialect, accountId, change.resourceType, change.resourceId, nowIso()) : undefined;
  await lockChain(tx, dialect, accountId);
  const head = await chainHead(tx, accountId);
  const revision = kept ?? (await resourceChanges(tx, accountId, change.resourceType, change.resourceId)) + 1;
  const event = {
    id: randomUUID(),
    account_id: accountId,
    seq: (head ? Number(head.seq) : 0) + 1,
    // Read under the chain lock, so the account's events run in time order as in seq order.
    occurred_at: nowIso(),
    scope_id: change.scopeId,
    principal_id: author.principalId,
    principal_kind: author.kind,
    token_id: author.tokenId ?? null,
    client_name: author.clientName?.slice(0, CLIENT_NAME_CHARS) ?? null,
    operation: currentOperation(),
    resource_type: change.resourceType,
    resource_id: change.resourceId,
    revision,
    summary: JSON.stringify(change.summary ?? {}),
    prev_hash: head?.hash ?? null,
  };
  await insertEvent(tx, { ...event, hash: eventHash(event) });
  return revision;
}
