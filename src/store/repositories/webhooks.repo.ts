/**
 * Webhook endpoints and their delivery log (migration 016). An endpoint is held by one deliverer at a time: a
 * lease taken by a conditional update (atomic on both engines), and every write of its delivery state made under
 * that lease (a deliverer whose lease ran out and was taken over changes nothing).
 */
import type { Updateable } from 'kysely';
import type { WebhookDeliveryTable, WebhookEndpointTable } from '../schema.js';
import type { Db, Tx } from '../store.js';
import { visibleTo, type Visibility } from '../visibility.js';

type Q = Db | Tx;

export async function insertEndpoint(q: Q, row: WebhookEndpointTable): Promise<void> {
  await q.insertInto('webhook_endpoints').values(row).execute();
}

export async function findEndpoint(q: Q, id: string, seen: Visibility): Promise<WebhookEndpointTable | undefined> {
  return q.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).where(visibleTo(seen)).executeTakeFirst();
}

export async function listEndpoints(q: Q, seen: Visibility): Promise<WebhookEndpointTable[]> {
  return q.selectFrom('webhook_endpoints').selectAll().where(visibleTo(seen)).orderBy('created_at').orderBy('id').execute();
}

export async function updateEndpoint(q: Q, id: string, changes: Updateable<WebhookEndpointTable>): Promise<void> {
  await q.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteEndpoint(q: Q, id: string): Promise<void> {
  await q.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await q.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** The account's latest event seq (0 when none): where a new endpoint's cursor starts. */
export async function headSeq(q: Q, accountId: string): Promise<number> {
  const row = await q.selectFrom('events').select('seq').where('account_id', '=', accountId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return row ? Number(row.seq) : 0;
}

/**
 * Endpoints that have an event to send now: not disabled, not held by a live lease, not waiting out a backoff,
 * with an event of their account after their cursor.
 */
export async function dueEndpoints(q: Q, now: string, limit: number): Promise<Array<Pick<WebhookEndpointTable, 'id'>>> {
  return q
    .selectFrom('webhook_endpoints as w')
    .select('w.id')
    .where('w.status', '!=', 'disabled')
    .where((eb) => eb.or([eb('w.leased_until', 'is', null), eb('w.leased_until', '<', now)]))
    .where((eb) => eb.or([eb('w.next_attempt_at', 'is', null), eb('w.next_attempt_at', '<=', now)]))
    .where((eb) => eb.exists(eb.selectFrom('events as e').select('e.seq').whereRef('e.account_id', '=', 'w.account_id').whereRef('e.seq', '>', 'w.cursor_seq')))
    .orderBy('w.next_attempt_at')
    .limit(limit)
    .execute();
}

/** Takes the endpoint for `leaseId` until `until`, if no live lease holds it; answers whether it did. */
export async function takeLease(q: Q, id: string, leaseId: string, now: string, until: string): Promise<boolean> {
  const result = await q
    .updateTable('webhook_endpoints')
    .set({ lease_id: leaseId, leased_until: until })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Changes the endpoint's delivery state only while `leaseId` holds it (and, with `fromStatus`, only while its status
 * is still that one: an Admin's disable made meanwhile stands); answers whether it changed.
 */
export async function updateUnderLease(q: Q, id: string, leaseId: string, changes: Updateable<WebhookEndpointTable>, fromStatus?: WebhookEndpointTable['status']): Promise<boolean> {
  let query = q.updateTable('webhook_endpoints').set(changes).where('id', '=', id).where('lease_id', '=', leaseId);
  if (fromStatus !== undefined) query = query.where('status', '=', fromStatus);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertDelivery(q: Q, row: WebhookDeliveryTable): Promise<void> {
  await q.insertInto('webhook_deliveries').values(row).execute();
}

/** The endpoint's delivery log, newest first, before `before` (attempted_at, id). */
export async function listDeliveries(q: Q, endpointId: string, limit: number, before?: { at: string; id: string }): Promise<WebhookDeliveryTable[]> {
  let query = q.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
  if (before) query = query.where((eb) => eb.or([eb('attempted_at', '<', before.at), eb.and([eb('attempted_at', '=', before.at), eb('id', '<', before.id)])]));
  return query.orderBy('attempted_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function findDelivery(q: Q, endpointId: string, id: string): Promise<WebhookDeliveryTable | undefined> {
  return q.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('id', '=', id).executeTakeFirst();
}

/** The last attempt of the endpoint (its health). */
export async function lastDelivery(q: Q, endpointId: string): Promise<WebhookDeliveryTable | undefined> {
  return q.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('attempted_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** An endpoint by id alone: the deliverer's read, which serves every account. */
export async function endpointById(q: Q, id: string): Promise<WebhookEndpointTable | undefined> {
  return q.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}
