/**
 * Recording what a person is told (issue 27), in the transaction of the change that causes it, so that a refused
 * write tells no one and an accepted one is never forgotten. Sending (mail, the app's live updates) happens after
 * the commit and never blocks or fails the write: a notification to mail is left `pending` for the mailer
 * (notifications/mailer.ts), which retries it.
 */
import type { NotificationKind } from '../../store/enums.js';
import type { Tx } from '../../store/store.js';
import { nowIso } from '../clock.js';

/** A few titles and ids a person reads in the app and in the mail: never an answer, a body or a credential. */
export type NoticeSummary = Record<string, string | number | boolean | null>;

export interface Notice {
  kind: NotificationKind;
  trailId: string | null;
  stepId: string | null;
  /** Who caused it (null: the scheduler); never told of their own change. */
  actorId: string | null;
  summary: NoticeSummary;
}

/** Whom to tell: principals by id, and every member of a group. */
export interface Recipients {
  principalIds?: readonly string[];
  groupId?: string | null;
}

/** The kinds a person gets by mail unless they chose otherwise (notification_settings). */
export const DEFAULT_EMAIL_KINDS: readonly NotificationKind[] = ['assigned', 'mentioned', 'step_overdue', 'trail_overdue'];

/**
 * Records the notice for each person named (and each member of the group), the actor left out; the people are
 * those of the account with kind 'person' (an agent has no inbox to be told in). Answers whom it told.
 */
export async function notify(tx: Tx, accountId: string, to: Recipients, notice: Notice): Promise<string[]> {
  const ids = new Set(to.principalIds ?? []);
  if (to.groupId) {
    const members = await tx.selectFrom('group_members').select('principal_id').where('group_id', '=', to.groupId).where('account_id', '=', accountId).execute();
    for (const m of members) ids.add(m.principal_id);
  }
  if (notice.actorId) ids.delete(notice.actorId);
  if (ids.size === 0) return [];
  const people = await tx
    .selectFrom('principals')
    .leftJoin('notification_settings', 'notification_settings.principal_id', 'principals.id')
    .select(['principals.id', 'principals.email', 'notification_settings.email_kinds'])
    .where('principals.account_id', '=', accountId)
    .where('principals.kind', '=', 'person')
    .where('principals.id', 'in', [...ids].sort())
    .execute();
  if (people.length === 0) return [];
  const now = nowIso();
  await tx
    .insertInto('notifications')
    .values(
      people.map((p) => {
        const kinds = p.email_kinds === null ? DEFAULT_EMAIL_KINDS : (JSON.parse(p.email_kinds) as NotificationKind[]);
        const byMail = p.email !== null && kinds.includes(notice.kind);
        return {
          account_id: accountId,
          principal_id: p.id,
          kind: notice.kind,
          trail_id: notice.trailId,
          step_id: notice.stepId,
          actor_id: notice.actorId,
          summary: JSON.stringify(notice.summary),
          created_at: now,
          read_at: null,
          email_state: byMail ? ('pending' as const) : ('none' as const),
          email_next_at: byMail ? now : null,
          email_lease_id: null,
          email_leased_until: null,
          email_error: null,
        };
      }),
    )
    .execute();
  return people.map((p) => p.id);
}
