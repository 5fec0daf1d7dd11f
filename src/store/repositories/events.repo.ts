/**
 * The event log (migration 013): appended to, never updated or deleted. An account's events are appended one at a
 * time (lockChain), so each reads the previous one's seq and hash and no two share a seq or fork the chain.
 */
import type { StoreDialect } from '../dialects/dialect.js';
import type { EventTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

/** Until the transaction ends, this account's events are appended by this transaction alone. */
export async function lockChain(tx: Tx, dialect: StoreDialect, accountId: string): Promise<void> {
  await dialect.lockKey(tx, `waymark.events:${accountId}`);
}

/** The account's last event: where the next one continues the chain. */
export async function chainHead(q: Q, accountId: string): Promise<{ seq: number; hash: string } | undefined> {
  return q.selectFrom('events').select(['seq', 'hash']).where('account_id', '=', accountId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

/** How many events name this resource so far: its revision before the next change. */
export async function resourceChanges(q: Q, accountId: string, resourceType: string, resourceId: string): Promise<number> {
  const row = await q
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('resource_type', '=', resourceType)
    .where('resource_id', '=', resourceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertEvent(tx: Tx, row: EventTable): Promise<void> {
  await tx.insertInto('events').values(row).execute();
}

/** The account's events in chain order, `limit` at a time after `afterSeq`: what `waymark audit verify` walks. */
export async function eventsAfter(q: Q, accountId: string, afterSeq: number, limit: number): Promise<EventTable[]> {
  return q.selectFrom('events').selectAll().where('account_id', '=', accountId).where('seq', '>', afterSeq).orderBy('seq').limit(limit).execute();
}
