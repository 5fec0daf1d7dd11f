/**
 * What the notification operations answer (issue 27), as zod schemas: each shape is written once, here, and is both
 * the service's type and the output schema its operation declares (operations/notifications), which the web app
 * reads (web/notifications-api.ts).
 */
import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../../store/enums.js';

export const notificationViewShape = z.object({
  /** The notification's number, as text (ids are text everywhere in the API). */
  notification_id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  trail_id: z.string().nullable(),
  step_id: z.string().nullable(),
  summary: z.string().describe('What happened, in a sentence for a person (notifications/words.ts).'),
  actor_id: z.string().nullable().describe('Who caused it; null: the scheduler (an overdue reminder).'),
  actor_name: z.string().nullable(),
  due_date_time_utc: z.string().nullable().describe('The step\'s or trail\'s due time, where the notice names one.'),
  created_date_time_utc: z.string(),
  read: z.boolean(),
  read_date_time_utc: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationViewShape>;

export const notificationPageShape = z.object({
  notifications: z.array(notificationViewShape),
  unread_count: z.number().int().describe('The caller\'s unread notifications, whatever the filter.'),
  next_cursor: z.string().nullable(),
});
export type NotificationPage = z.infer<typeof notificationPageShape>;

export const notificationsMarkedShape = z.object({
  marked: z.number().int().describe('How many were unread and are now read.'),
  unread_count: z.number().int(),
});
export type NotificationsMarked = z.infer<typeof notificationsMarkedShape>;

export const notificationSettingsShape = z.object({
  email: z.string().nullable().describe('Where mail goes; null: none is set (an Admin sets a person\'s address), so nothing is mailed.'),
  email_kinds: z.array(z.enum(NOTIFICATION_KINDS)).describe('The kinds that also come by mail.'),
  kinds: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), label: z.string() })).describe('Every kind, in a person\'s words, for a settings form.'),
});
export type NotificationSettings = z.infer<typeof notificationSettingsShape>;
