/**
 * The notifications waiting to go by mail (migration 017, issue 27): the mailer's queue. A message is `pending`
 * until sent; each mailer takes one under a lease by a conditional update (atomic on both engines) that also moves
 * its email_next_at to the lease's end, so a held message leaves the due range of the index notifications_mail and a
 * message whose mailer died comes due again when the lease runs out. Every later write of its mail state is made
 * under that lease: a mailer whose lease was taken over changes nothing.
 */
import { sql, type SqlBool, type Updateable } from 'kysely';
import type { NotificationTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

/** As the partial index notifications_mail states it (a literal: see inbox.repo.ts on partial indexes). */
const isPending = sql<SqlBool>`${sql.ref('email_state')} = ${sql.lit('pending')}`;

/** Pending messages due now, the longest waiting first. */
export async function dueMail(q: Q, now: string, limit: number): Promise<Array<Pick<NotificationTable, 'email_next_at'> & { id: number }>> {
  const rows = await q.selectFrom('notifications').select(['id', 'email_next_at']).where(isPending).where('email_next_at', '<=', now).orderBy('email_next_at').orderBy('id').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), email_next_at: r.email_next_at }));
}

/** Takes the message for `leaseId` until `until` if it is still pending, due and held by no live lease; answers whether it did. */
export async function takeMail(q: Q, id: number, leaseId: string, now: string, until: string): Promise<boolean> {
  const result = await q
    .updateTable('notifications')
    .set({ email_lease_id: leaseId, email_leased_until: until, email_next_at: until })
    .where('id', '=', id)
    .where(isPending)
    .where('email_next_at', '<=', now)
    .where((eb) => eb.or([eb('email_leased_until', 'is', null), eb('email_leased_until', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes the message's mail state if `leaseId` still holds it, and lets the lease go; answers whether it did. */
export async function settleMail(q: Q, id: number, leaseId: string, changes: Updateable<NotificationTable>): Promise<boolean> {
  const result = await q
    .updateTable('notifications')
    .set({ ...changes, email_lease_id: null, email_leased_until: null })
    .where('id', '=', id)
    .where('email_lease_id', '=', leaseId)
    .where(isPending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What a message says, read when it is sent: the notice, whom it is for (their address now) and who caused it. */
export interface MailFacts {
  id: number;
  kind: NotificationTable['kind'];
  trail_id: string | null;
  step_id: string | null;
  summary: string;
  email_attempts: number;
  recipient_name: string;
  recipient_email: string | null;
  actor_name: string | null;
  trail_title: string | null;
  flow_title: string | null;
  step_title: string | null;
  current_step_id: string | null;
}

export async function mailFacts(q: Q, id: number): Promise<MailFacts | undefined> {
  const row = await q
    .selectFrom('notifications as n')
    .innerJoin('principals as to', (j) => j.onRef('to.id', '=', 'n.principal_id').onRef('to.account_id', '=', 'n.account_id'))
    .leftJoin('principals as by', (j) => j.onRef('by.id', '=', 'n.actor_id').onRef('by.account_id', '=', 'n.account_id'))
    .leftJoin('trails as t', (j) => j.onRef('t.id', '=', 'n.trail_id').onRef('t.account_id', '=', 'n.account_id'))
    .leftJoin('flows as f', 'f.id', 't.flow_id')
    .leftJoin('trail_steps as s', (j) => j.onRef('s.id', '=', 'n.step_id').onRef('s.trail_id', '=', 'n.trail_id'))
    .select([
      'n.id',
      'n.kind',
      'n.trail_id',
      'n.step_id',
      'n.summary',
      'n.email_attempts',
      'to.name as recipient_name',
      'to.email as recipient_email',
      'by.name as actor_name',
      't.title as trail_title',
      'f.title as flow_title',
      's.bit_title as step_title',
      't.current_step_id',
    ])
    .where('n.id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id), email_attempts: Number(row.email_attempts) } : undefined;
}
