/**
 * The values of every enumerated column (authoring-interface.md and CONTRACT.md name them), each list once:
 * the store's column types, the services' types and the tools' zod enums are all derived from these.
 * Pure constants, so any layer may read them.
 */

export const PRINCIPAL_KINDS = ['agent', 'person'] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];

/** In rising order: each permission includes the ones before it. */
export const PERMISSIONS = ['view', 'edit', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const COMPLEXITIES = ['low', 'medium', 'high'] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

export const BIT_STATUSES = ['active', 'archived'] as const;
export type BitStatus = (typeof BIT_STATUSES)[number];

export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const REVIEW_STATUSES = ['pending', 'approved', 'changes_requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const TRAIL_STATUSES = ['running', 'waiting_for_person', 'completed', 'cancelled'] as const;
export type TrailStatus = (typeof TRAIL_STATUSES)[number];

/** The statuses of a trail that is still under way: what the inbox lists. */
export const OPEN_TRAIL_STATUSES = ['running', 'waiting_for_person'] as const satisfies readonly TrailStatus[];
export type OpenTrailStatus = (typeof OPEN_TRAIL_STATUSES)[number];

export const TRAIL_EVENT_KINDS = ['transfer', 'cancel'] as const;
export type TrailEventKind = (typeof TRAIL_EVENT_KINDS)[number];

/** Who made a change an event records: a principal's kind, or the operator at the server's command line (`waymark token …`). */
export const EVENT_ACTOR_KINDS = [...PRINCIPAL_KINDS, 'operator'] as const;
export type EventActorKind = (typeof EVENT_ACTOR_KINDS)[number];

/** What an event names as changed (issue 26). A link is its bit's change; sessions, links and tokens are the sign-in paths'. */
export const EVENT_RESOURCE_TYPES = ['account', 'scope', 'bit', 'flow', 'reference', 'trail', 'token', 'grant', 'session', 'signin_link', 'principal', 'webhook', 'group'] as const;
export type EventResourceType = (typeof EVENT_RESOURCE_TYPES)[number];

/**
 * Why a person is told (issue 27): a step assigned or handed to them or a group of theirs, a mention in a comment,
 * a step or a trail of theirs overdue. Each person chooses which of these they get by mail.
 */
export const NOTIFICATION_KINDS = ['assigned', 'mentioned', 'step_overdue', 'trail_overdue'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/**
 * A row of the notifications table that is mail only (issue 28): an Admin's invitation, which carries the invited
 * person's sign-in link. It is never listed in the app (the person cannot read the app yet) nor chosen in settings.
 */
export const INVITE_MAIL_KIND = 'invited';
export type MailKind = NotificationKind | typeof INVITE_MAIL_KIND;
