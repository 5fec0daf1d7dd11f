/**
 * A person's notifications (issue 27): the list, marking read, and which kinds come by mail. Operations of the web
 * app and REST, not MCP tools: notifications are for people (an agent is never told; notify() tells only people),
 * and an agent's tools/list has no room for what it would never use. Declared as the inbox is
 * (trails/app-operations.ts): the run capability, since every notification is about a trail.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { RUN_ACCESS } from '../../services/actor.js';
import { notificationPageShape, notificationSettingsShape, notificationsMarkedShape } from '../../services/notifications/shapes.js';
import { NOTIFICATION_KINDS } from '../../store/enums.js';
import { defineOperation } from '../operation.js';

export const listNotificationsOperation = defineOperation({
  name: 'list_notifications',
  title: 'My notifications',
  description: [
    'The caller\'s notifications, newest first: a step assigned or handed to them or their group, a mention in a comment, a step or trail of theirs overdue.',
    'Each says what happened in a sentence, with its trail and step, who caused it, when, and whether it was read; unread_count counts every unread one.',
    'Errors: VALIDATION_ERROR (a bad cursor).',
  ].join(' '),
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/notifications', operationId: 'listNotifications' },
  mcp: false,
  input: z.strictObject({
    unread: z.boolean().optional().describe('true: only the unread ones.'),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, 1 to ${LIMITS.pageSize}; default ${LIMITS.notificationsPageSize}.`),
    cursor: z.string().max(200).optional().describe('next_cursor of the previous page; omit for the first page.'),
  }),
  output: notificationPageShape,
  run: ({ actor, services }, input) => services.notifications.list(actor, input),
});

export const markNotificationsReadOperation = defineOperation({
  name: 'mark_notifications_read',
  title: 'Mark notifications read',
  description: [
    'Marks the caller\'s notifications read: those named in notification_ids, or every unread one with all: true.',
    'Marking a read one again changes nothing. Errors: NOTIFICATION_NOT_FOUND (not one of the caller\'s: nothing is marked), VALIDATION_ERROR (neither or both of notification_ids and all).',
  ].join(' '),
  flags: { W: true, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/notifications/read', operationId: 'markNotificationsRead' },
  mcp: false,
  input: z.strictObject({
    notification_ids: z.array(z.string().min(1).max(40)).min(1).max(LIMITS.notificationIdsPerCall).optional().describe('The notifications to mark read.'),
    all: z.literal(true).optional().describe('Mark every unread notification read.'),
  }),
  output: notificationsMarkedShape,
  run: ({ actor, services }, input) => services.notifications.markRead(actor, input),
});

export const getNotificationSettingsOperation = defineOperation({
  name: 'get_notification_settings',
  title: 'My mail settings',
  description: 'Which kinds of notification also come to the caller by mail, every kind in a person\'s words, and the caller\'s email address (null: none set, so nothing is mailed; an Admin sets it).',
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/notifications/settings', operationId: 'getNotificationSettings' },
  mcp: false,
  input: z.strictObject({}),
  output: notificationSettingsShape,
  run: ({ actor, services }) => services.notifications.settings(actor),
});

export const setNotificationSettingsOperation = defineOperation({
  name: 'set_notification_settings',
  title: 'Choose which notifications come by mail',
  description: 'Sets which kinds of notification also come to the caller by mail (an empty list: none); every one still shows in the app. Answers the settings as get_notification_settings does.',
  flags: { W: true, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'post', path: '/notifications/settings', operationId: 'setNotificationSettings' },
  mcp: false,
  input: z.strictObject({
    email_kinds: z.array(z.enum(NOTIFICATION_KINDS)).max(NOTIFICATION_KINDS.length).describe('The kinds to get by mail.'),
  }),
  output: notificationSettingsShape,
  run: ({ actor, services }, input) => services.notifications.setSettings(actor, input),
});

export const NOTIFICATION_OPERATIONS = [listNotificationsOperation, markNotificationsReadOperation, getNotificationSettingsOperation, setNotificationSettingsOperation] as const;
