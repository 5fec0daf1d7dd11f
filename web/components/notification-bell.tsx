/**
 * The header's notifications link with my unread count (issue 27), kept current by live updates. The count is in
 * the link's name for whoever reaches it, and a change of it is announced politely (a status region), once it is
 * known: the first count read is not news.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLive } from '../live.js';
import { notifications } from '../notifications-api.js';
import { href } from '../router.js';

export function unreadInWords(n: number): string {
  return n === 0 ? 'No unread notifications' : `${n} unread notification${n === 1 ? '' : 's'}`;
}

export function NotificationBell({ current }: { current: boolean }) {
  const [unread, setUnread] = useState<number | null>(null);
  const [announced, setAnnounced] = useState('');
  const known = useRef<number | null>(null);
  const show = (n: number) => {
    if (known.current !== null && known.current !== n) setAnnounced(unreadInWords(n));
    known.current = n;
    setUnread(n);
  };
  useEffect(() => {
    notifications({ limit: 1 }).then(
      (page) => show(page.unread_count),
      () => undefined,
    );
  }, []);
  useLive('notifications', (data) => show(data.unread_count));
  return (
    <>
      <a href={href('/notifications')} class="bell" aria-current={current ? 'page' : undefined} data-unread={unread ?? ''}>
        Notifications
        {unread !== null && unread > 0 && (
          <span class="bell-count">
            <span aria-hidden="true">{unread > 99 ? '99+' : unread}</span>
            <span class="visually-hidden">, {unreadInWords(unread).toLowerCase()}</span>
          </span>
        )}
      </a>
      <span class="visually-hidden" role="status" aria-live="polite">
        {announced}
      </span>
    </>
  );
}
