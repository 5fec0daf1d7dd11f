/**
 * A person's notifications in the app (issue 27): their list (newest first, keyset paging by id, an unread filter,
 * the unread count), marking them read, and which kinds also come by mail. Each person sees only their own: another
 * person's or account's notification is NOTIFICATION_NOT_FOUND, exactly as one that does not exist.
 */
import { validationError, WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../store/enums.js';
import * as repo from '../../store/repositories/person-notifications.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { nowIso } from '../clock.js';
import { recordChange } from '../events/record.js';
import { DEFAULT_EMAIL_KINDS, type NoticeSummary } from './record.js';
import type { NotificationPage, NotificationSettings, NotificationsMarked, NotificationView } from './shapes.js';
import { NOTIFICATION_KIND_LABELS, noticeDue, noticeSentence } from './words.js';

export interface ListNotificationsInput {
  unread?: boolean;
  limit?: number;
  cursor?: string;
}

export interface MarkReadInput {
  notification_ids?: string[];
  all?: boolean;
}

/** A cursor is the last id of the page, base64url: opaque to the caller, as every cursor of the API. */
function encodeCursor(id: number): string {
  return Buffer.from(`n:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^n:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw validationError([{ path: 'cursor', message: 'not a cursor this server handed out; pass next_cursor from the previous page, or omit it' }]);
  return Number(match[1]);
}

function notFound(id: string): WaymarkError {
  return new WaymarkError('NOTIFICATION_NOT_FOUND', `You have no notification ${id}: list_notifications lists yours.`, { notification_id: id });
}

function view(row: repo.NotificationRow): NotificationView {
  const summary = JSON.parse(row.summary) as NoticeSummary;
  return {
    notification_id: String(row.id),
    kind: row.kind,
    trail_id: row.trail_id,
    step_id: row.step_id,
    summary: noticeSentence(row.kind, summary, row.actor_name),
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    due_date_time_utc: noticeDue(summary),
    created_date_time_utc: row.created_at,
    read: row.read_at !== null,
    read_date_time_utc: row.read_at,
  };
}

export class NotificationsService {
  constructor(private readonly store: Store) {}

  async list(actor: Actor, input: ListNotificationsInput): Promise<NotificationPage> {
    const limit = input.limit ?? LIMITS.notificationsPageSize;
    const beforeId = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    const rows = await repo.listNotifications(this.store.db, actor.principalId, { unread: input.unread === true, beforeId, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      notifications: page.map(view),
      unread_count: await repo.unreadCount(this.store.db, actor.principalId),
      next_cursor: rows.length > limit && last ? encodeCursor(last.id) : null,
    };
  }

  /**
   * Marks the named notifications (or all) read. It records no event: the events log (issue 26) is the account's
   * content changing, which history, audit and webhooks read, while what a person has read is their own state,
   * changed as often as they glance at the bell, and no one else's to see; `inbox` and `list_notifications` are
   * reads for the same reason. A notification not the caller's refuses the whole call, so nothing is half-marked.
   */
  async markRead(actor: Actor, input: MarkReadInput): Promise<NotificationsMarked> {
    const all = input.all === true;
    const named = input.notification_ids ?? [];
    if (all === named.length > 0) {
      throw validationError([{ path: 'notification_ids', message: 'name the notifications to mark read, or pass all: true (not both)' }]);
    }
    const marked = await this.store.transaction(async (tx) => {
      if (all) return repo.markRead(tx, actor.principalId, 'all', nowIso());
      const ids = new Map(named.map((text) => [text, /^\d{1,15}$/.test(text) ? Number(text) : null]));
      const own = await repo.ownIds(tx, actor.principalId, [...ids.values()].filter((id): id is number => id !== null));
      for (const [text, id] of ids) if (id === null || !own.has(id)) throw notFound(text);
      return repo.markRead(tx, actor.principalId, [...own], nowIso());
    });
    return { marked, unread_count: await repo.unreadCount(this.store.db, actor.principalId) };
  }

  async settings(actor: Actor): Promise<NotificationSettings> {
    const [principal, kinds] = await Promise.all([
      this.store.db.selectFrom('principals').select('email').where('id', '=', actor.principalId).where('account_id', '=', actor.accountId).executeTakeFirst(),
      repo.emailKinds(this.store.db, actor.principalId),
    ]);
    const chosen = new Set(kinds ?? DEFAULT_EMAIL_KINDS);
    return {
      email: principal?.email ?? null,
      // In the catalogue's order, whatever order they were chosen in.
      email_kinds: NOTIFICATION_KINDS.filter((k) => chosen.has(k)),
      kinds: NOTIFICATION_KINDS.map((kind) => ({ kind, label: NOTIFICATION_KIND_LABELS[kind] })),
    };
  }

  /**
   * Which kinds come by mail. Unlike marking read, this records one event (resource: the person): it changes what
   * the server does on the person's behalf from now on, as a revoked key or an ended session does, and an Admin
   * asking "why did Ann get no reminder?" finds when it was changed, and through which credential. A choice that
   * changes nothing records nothing.
   */
  async setSettings(actor: Actor, input: { email_kinds: NotificationKind[] }): Promise<NotificationSettings> {
    const wanted = NOTIFICATION_KINDS.filter((k) => input.email_kinds.includes(k));
    await this.store.transaction(async (tx) => {
      const principal = await tx.selectFrom('principals').select(['id', 'scope_id']).where('id', '=', actor.principalId).where('account_id', '=', actor.accountId).executeTakeFirst();
      if (!principal) throw new WaymarkError('PRINCIPAL_NOT_FOUND', 'Your principal no longer exists: sign in again.');
      const current = (await repo.emailKinds(tx, actor.principalId)) ?? DEFAULT_EMAIL_KINDS;
      const same = current.length === wanted.length && wanted.every((k) => current.includes(k));
      if (same) return;
      await repo.saveEmailKinds(tx, { principalId: actor.principalId, accountId: actor.accountId, kinds: wanted, at: nowIso() });
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'principal', resourceId: actor.principalId, scopeId: principal.scope_id, summary: { email_kinds: wanted } });
    });
    return this.settings(actor);
  }
}
