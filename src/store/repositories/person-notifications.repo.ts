/**
 * A person's notifications (migration 017) as they read them: their list newest first (keyset by id), their read
 * state, their mail settings, and the reads the live-update poller batches for every connected person at once.
 * Every read names the principal, so one person's notifications are never another's (not-found, not forbidden).
 */
import { INVITE_MAIL_KIND, type NotificationKind } from '../enums.js';
import type { NotificationTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export type NotificationRow = Pick<NotificationTable, 'trail_id' | 'step_id' | 'actor_id' | 'summary' | 'created_at' | 'read_at'> & { id: number; kind: NotificationKind; actor_name: string | null };

/** A page of the principal's notifications, newest first, below `beforeId` when given; `limit` rows at most. */
export async function listNotifications(q: Q, principalId: string, options: { unread: boolean; beforeId?: number; limit: number }): Promise<NotificationRow[]> {
  let query = q
    .selectFrom('notifications')
    .leftJoin('principals as actor', 'actor.id', 'notifications.actor_id')
    .select(['notifications.id', 'notifications.kind', 'notifications.trail_id', 'notifications.step_id', 'notifications.actor_id', 'notifications.summary', 'notifications.created_at', 'notifications.read_at', 'actor.name as actor_name'])
    .where('notifications.principal_id', '=', principalId)
    // An invitation's mail is no notice of the app (enums.ts INVITE_MAIL_KIND): it is recorded read, and never listed.
    .where('notifications.kind', '!=', INVITE_MAIL_KIND);
  if (options.unread) query = query.where('notifications.read_at', 'is', null);
  if (options.beforeId !== undefined) query = query.where('notifications.id', '<', options.beforeId);
  const rows = await query.orderBy('notifications.id', 'desc').limit(options.limit).execute();
  return rows.map((r) => ({ ...r, kind: r.kind as NotificationKind, id: Number(r.id) }));
}

export async function unreadCount(q: Q, principalId: string): Promise<number> {
  const row = await q.selectFrom('notifications').select((eb) => eb.fn.countAll<string | number>().as('n')).where('principal_id', '=', principalId).where('read_at', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Which of these ids are the principal's: the others are another person's, or none at all. */
export async function ownIds(q: Q, principalId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await q.selectFrom('notifications').select('id').where('principal_id', '=', principalId).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => Number(r.id)));
}

/** Marks the principal's unread notifications read (these ids, or all): how many it changed. */
export async function markRead(q: Q, principalId: string, ids: readonly number[] | 'all', at: string): Promise<number> {
  let query = q.updateTable('notifications').set({ read_at: at }).where('principal_id', '=', principalId).where('read_at', 'is', null);
  if (ids !== 'all') {
    if (ids.length === 0) return 0;
    query = query.where('id', 'in', [...ids]);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The kinds the principal gets by mail, or null when they never chose (record.ts DEFAULT_EMAIL_KINDS apply). */
export async function emailKinds(q: Q, principalId: string): Promise<NotificationKind[] | null> {
  const row = await q.selectFrom('notification_settings').select('email_kinds').where('principal_id', '=', principalId).executeTakeFirst();
  return row ? (JSON.parse(row.email_kinds) as NotificationKind[]) : null;
}

export async function saveEmailKinds(q: Q, row: { principalId: string; accountId: string; kinds: readonly NotificationKind[]; at: string }): Promise<void> {
  const values = { principal_id: row.principalId, account_id: row.accountId, email_kinds: JSON.stringify(row.kinds), updated_at: row.at };
  await q
    .insertInto('notification_settings')
    .values(values)
    .onConflict((oc) => oc.column('principal_id').doUpdateSet({ email_kinds: values.email_kinds, updated_at: values.updated_at }))
    .execute();
}

/** For the live poller: each principal's newest notification id and unread count, in two batched reads. */
export async function notificationHeads(q: Q, principalIds: readonly string[]): Promise<Map<string, { latestId: number; unread: number }>> {
  const heads = new Map<string, { latestId: number; unread: number }>();
  if (principalIds.length === 0) return heads;
  const ids = [...principalIds];
  const latest = await q.selectFrom('notifications').select(['principal_id', (eb) => eb.fn.max('id').as('latest')]).where('principal_id', 'in', ids).groupBy('principal_id').execute();
  // The unread partial index (principal_id, id WHERE read_at IS NULL) answers this without reading read rows.
  const unread = await q
    .selectFrom('notifications')
    .select(['principal_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('principal_id', 'in', ids)
    .where('read_at', 'is', null)
    .groupBy('principal_id')
    .execute();
  for (const row of latest) heads.set(row.principal_id, { latestId: Number(row.latest), unread: 0 });
  for (const row of unread) {
    const head = heads.get(row.principal_id);
    if (head) head.unread = Number(row.n);
  }
  return heads;
}

/** For the live poller: each account's newest event number (events_account_seq answers it per account). */
export async function eventHeads(q: Q, accountIds: readonly string[]): Promise<Map<string, number>> {
  if (accountIds.length === 0) return new Map();
  const rows = await q.selectFrom('events').select(['account_id', (eb) => eb.fn.max('seq').as('seq')]).where('account_id', 'in', [...accountIds]).groupBy('account_id').execute();
  return new Map(rows.map((r) => [r.account_id, Number(r.seq)]));
}

/**
 * The scopes of the trails an account's events after `afterSeq` changed (null: account level), up to `throughSeq`:
 * whom an `inbox` update concerns. A person limited to a scope sees that scope's trails and the account level's.
 */
export async function trailChangeScopes(q: Q, accountId: string, afterSeq: number, throughSeq: number): Promise<Array<string | null>> {
  const rows = await q
    .selectFrom('events')
    .select('scope_id')
    .distinct()
    .where('account_id', '=', accountId)
    .where('seq', '>', afterSeq)
    .where('seq', '<=', throughSeq)
    .where('resource_type', '=', 'trail')
    .execute();
  return rows.map((r) => r.scope_id);
}
