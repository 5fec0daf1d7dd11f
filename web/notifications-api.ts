/** The app's calls for a person's notifications and mail settings (issue 27), through the one door (api.ts). */
import { call, withQuery } from './api.js';
import type { NotificationPage, NotificationSettings, NotificationsMarked } from '../src/services/notifications/shapes.js';
import type { NotificationKind } from '../src/store/enums.js';

export type { NotificationPage, NotificationSettings, NotificationView } from '../src/services/notifications/shapes.js';

/** Mine, newest first (list_notifications). */
export const notifications = (q: { unread?: boolean; cursor?: string; limit?: number } = {}) => call<NotificationPage>('GET', withQuery('/notifications', { ...q, unread: q.unread || undefined }));
/** These read, or all of them (mark_notifications_read). */
export const markRead = (which: { notification_ids: string[] } | { all: true }) => call<NotificationsMarked>('POST', '/notifications/read', which);
export const notificationSettings = () => call<NotificationSettings>('GET', '/notifications/settings');
export const setNotificationSettings = (emailKinds: NotificationKind[]) => call<NotificationSettings>('POST', '/notifications/settings', { email_kinds: emailKinds });
