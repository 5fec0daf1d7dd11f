/**
 * Live updates in the app (issue 27): one EventSource on GET /api/v1/live for the whole app, shared by every
 * component that listens, opened while someone listens and closed when no one does. The server sends
 * `notifications` (the unread count) and `inbox` (a trail I can see changed); see src/http/live/live-hub.ts.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export interface LiveEvents {
  notifications: { unread_count: number; latest_id: string | null };
  inbox: { seq: number };
}
export type LiveChannel = keyof LiveEvents;

/** After the server refused or ended the stream for good (signed out, too many windows): try again this much later. */
const RETRY_MS = 60_000;

const listeners: { [C in LiveChannel]: Set<(data: LiveEvents[C]) => void> } = { notifications: new Set(), inbox: new Set() };
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
/** Whether a stream was open before: on opening again, what changed meanwhile was missed, so the inbox reloads. */
let wasOpen = false;

const listening = () => listeners.notifications.size + listeners.inbox.size > 0;

function emit<C extends LiveChannel>(channel: C, data: LiveEvents[C]): void {
  for (const listener of [...listeners[channel]]) listener(data);
}

function connect(): void {
  if (source || retry || typeof EventSource === 'undefined') return;
  const opened = new EventSource('/api/v1/live');
  source = opened;
  opened.addEventListener('open', () => {
    if (wasOpen) emit('inbox', { seq: 0 });
    wasOpen = true;
  });
  for (const channel of ['notifications', 'inbox'] as const) {
    opened.addEventListener(channel, (event) => emit(channel, JSON.parse((event as MessageEvent<string>).data) as never));
  }
  opened.addEventListener('error', () => {
    // CONNECTING: the browser reconnects by itself (the server said when, with `retry`). CLOSED: it gave up (a
    // refusal such as 401 or 429), so try again later, if anyone still listens.
    if (opened.readyState !== EventSource.CLOSED) return;
    source = null;
    retry = setTimeout(() => {
      retry = null;
      if (listening()) connect();
    }, RETRY_MS);
  });
}

function disconnectIfIdle(): void {
  if (listening()) return;
  source?.close();
  source = null;
}

/** Calls `onEvent` on each event of the channel while the component is mounted. */
export function useLive<C extends LiveChannel>(channel: C, onEvent: (data: LiveEvents[C]) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const listener = (data: LiveEvents[C]) => handler.current(data);
    listeners[channel].add(listener);
    connect();
    return () => {
      listeners[channel].delete(listener);
      disconnectIfIdle();
    };
  }, [channel]);
}

/** How many events of the channel arrived since the component mounted: a dependency that changes on each. */
export function useLiveCount(channel: LiveChannel): number {
  const [count, setCount] = useState(0);
  useLive(channel, () => setCount((n) => n + 1));
  return count;
}
