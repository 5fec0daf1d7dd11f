/** live: what a person is told in the app (issue 27): the notification list and the live-update streams. */
export const LIVE_LIMITS = {
  /** Notifications per page when `limit` is omitted (at most pageSize). */
  notificationsPageSize: 30,
  /** Notification ids one mark_notifications_read call names. */
  notificationIdsPerCall: 100,
  /**
   * Open live-update streams (GET /api/v1/live) per person in one process: a few tabs; a sixth is refused
   * (TOO_MANY_REQUESTS) rather than closing another tab's stream, which would reconnect and close the next.
   */
  liveStreamsPerPerson: 5,
  /** Open live-update streams in one process, for all people: each holds a socket and a little memory. */
  liveStreamsPerProcess: 2000,
  /**
   * How long one stream stays open: it then ends and the browser reconnects, authenticating again, so a session
   * signed out or revoked elsewhere stops receiving within this long (10 minutes).
   */
  liveStreamMs: 10 * 60_000,
} as const;
