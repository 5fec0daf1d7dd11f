/**
 * My notifications (issue 27): newest first, what happened in a sentence with a link to its step, unread ones
 * marked; mark one or all read; only the unread ones on request; a page at a time. The list reads itself again
 * when a live update says my notifications changed (a new one, or some read in another window).
 */
import { useEffect, useState } from 'preact/hooks';
import { when } from '../components/loaded.js';
import { useLive } from '../live.js';
import { markRead, notifications, type NotificationPage, type NotificationView } from '../notifications-api.js';
import { href, navigate, type Params } from '../router.js';
import { unreadInWords } from '../components/notification-bell.js';

const PAGE = 30;

/** Where a notification leads: its step's form, or the trail's page for one about the whole trail. */
function target(n: NotificationView): string | null {
  if (!n.trail_id) return null;
  const trail = `/trails/${encodeURIComponent(n.trail_id)}`;
  return n.kind === 'trail_overdue' ? trail : `${trail}/step`;
}

function Item({ n, onRead }: { n: NotificationView; onRead: (id: string) => void }) {
  const to = target(n);
  return (
    <li class={`inbox-item notification${n.read ? '' : ' unread'}`}>
      {to ? (
        <a href={href(to)} class="item-title" onClick={() => !n.read && onRead(n.notification_id)}>
          {n.summary}
        </a>
      ) : (
        <span class="item-title">{n.summary}</span>
      )}
      <span class="badges">
        {!n.read && <span class="badge status-waiting_for_person">Unread</span>}
        {n.due_date_time_utc && <span class="badge">Due {when(n.due_date_time_utc)}</span>}
      </span>
      <span class="muted">{when(n.created_date_time_utc)}</span>
      {!n.read && (
        <button type="button" class="link" onClick={() => onRead(n.notification_id)}>
          Mark read<span class="visually-hidden">: {n.summary}</span>
        </button>
      )}
    </li>
  );
}

export function NotificationsPage({ params }: { params: Params }) {
  const unreadOnly = params['?unread'] === '1';
  const [page, setPage] = useState<NotificationPage | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);

  const load = () =>
    notifications({ unread: unreadOnly, limit: PAGE }).then(
      (p) => (setPage(p), setFailed(null)),
      (e: Error) => setFailed(e.message),
    );
  useEffect(() => {
    setPage(null);
    void load();
  }, [unreadOnly]);
  useLive('notifications', () => void load());

  const read = async (which: { notification_ids: string[] } | { all: true }) => {
    setBusy(true);
    try {
      const done = await markRead(which);
      setSaid(`Marked ${done.marked} read. ${unreadInWords(done.unread_count)}.`);
      await load();
    } catch (e) {
      setSaid(`Could not mark them read: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const more = async () => {
    if (!page?.next_cursor) return;
    const next = await notifications({ unread: unreadOnly, limit: PAGE, cursor: page.next_cursor });
    setPage({ ...next, notifications: [...page.notifications, ...next.notifications] });
  };

  return (
    <>
      <h1>Notifications</h1>
      <div class="actions">
        <label>
          <input type="checkbox" checked={unreadOnly} onChange={(e) => navigate((e.currentTarget as HTMLInputElement).checked ? '/notifications?unread=1' : '/notifications')} /> Only unread
        </label>
        <button type="button" disabled={busy || !page || page.unread_count === 0} onClick={() => void read({ all: true })}>
          Mark all read
        </button>
        <a href={href('/settings')}>Which ones come by email</a>
      </div>
      <p class="status" role="status">
        {said}
      </p>
      {failed && (
        <p role="alert" class="error-summary">
          {failed}
        </p>
      )}
      {!page && !failed && <p class="loading">Loading…</p>}
      {page && (
        <>
          <p class="counts">{unreadInWords(page.unread_count)}.</p>
          {page.notifications.length === 0 ? (
            <p class="empty">{unreadOnly ? 'Nothing unread.' : 'Nothing yet: you are told here when a step is given to you, someone mentions you, or something of yours is overdue.'}</p>
          ) : (
            <ul class="inbox" aria-label="Notifications">
              {page.notifications.map((n) => (
                <Item key={n.notification_id} n={n} onRead={(id) => void read({ notification_ids: [id] })} />
              ))}
            </ul>
          )}
          {page.next_cursor && (
            <button type="button" onClick={() => void more()}>
              Show more
            </button>
          )}
        </>
      )}
    </>
  );
}
