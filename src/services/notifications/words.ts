/**
 * A notification in a person's words (issue 27): what each kind means, for the settings form, and the sentence for
 * one notification from its summary, for the app's list. The summary is what the causing write put there
 * (record.ts NoticeSummary: titles, a due time, a comment's excerpt); a title it lacks is said generically, so an
 * older or sparser notice still reads as a sentence.
 */
import type { NotificationKind } from '../../store/enums.js';
import type { NoticeSummary } from './record.js';

/** What each kind means, as a person chooses which come by mail. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  assigned: 'A step is assigned or handed to me or to a group I am in',
  mentioned: 'Someone mentions me in a comment',
  step_overdue: 'A step of mine is overdue',
  trail_overdue: 'A trail of mine is overdue',
};

/**
 * The keys a notice's summary may carry for each fact (record.ts: a few titles and ids), first match wins: the
 * callers (assignment, mentions, the scheduler) name them so. The mailer reads a missing title from the store.
 */
export const SUMMARY_KEYS = {
  trailTitle: ['trail_title'],
  flowTitle: ['flow_title'],
  stepTitle: ['step_title', 'bit_title'],
  groupName: ['group_name'],
  actorName: ['actor_name', 'commenter_name'],
  due: ['due_date_time_utc', 'due', 'due_at', 'step_due_at'],
  excerpt: ['excerpt', 'comment_excerpt'],
} as const;

export function summaryText(summary: Record<string, unknown>, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = summary[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** A title in a headline: one line (no header folding in a mail subject), at most `max` characters. */
export function oneLine(text: string, max = 80): string {
  // Control characters (CR and LF above all) never reach a header or a line of their own.
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** What a headline names. */
export interface NoticeTitles {
  kind: NotificationKind;
  stepTitle: string | null;
  trailTitle: string | null;
  flowTitle: string | null;
  groupName: string | null;
  actorName: string | null;
}

/** A notice's headline in a person's words: the app's list and the mail's subject say it the same. */
export function noticeHeadline(t: NoticeTitles): string {
  const named = t.trailTitle ?? t.flowTitle;
  const where = `${oneLine(t.stepTitle ?? 'a step')}${named ? ` in ${oneLine(named)}` : ''}`;
  switch (t.kind) {
    case 'assigned':
      return t.groupName ? `Your group ${oneLine(t.groupName, 60)} has a step to do: ${where}` : `You have a step to do: ${where}`;
    case 'mentioned':
      return `${oneLine(t.actorName ?? 'Someone', 60)} mentioned you on ${where}`;
    case 'step_overdue':
      return `Overdue: ${where}`;
    case 'trail_overdue':
      return named ? `Overdue: the trail ${oneLine(named)}` : 'Overdue: a trail of yours';
  }
}

/** The due time a notice names, if it names one as an ISO date-time. */
export function noticeDue(summary: NoticeSummary): string | null {
  const due = summaryText(summary, SUMMARY_KEYS.due);
  return due !== null && !Number.isNaN(Date.parse(due)) ? due : null;
}

/** The app's sentence for a notice: its headline, who did it, and a mention's words. */
export function noticeSentence(kind: NotificationKind, summary: NoticeSummary, actorName: string | null): string {
  const read = (key: keyof typeof SUMMARY_KEYS) => summaryText(summary, SUMMARY_KEYS[key]);
  const actor = actorName ?? read('actorName');
  const headline = noticeHeadline({ kind, stepTitle: read('stepTitle'), trailTitle: read('trailTitle'), flowTitle: read('flowTitle'), groupName: read('groupName'), actorName: actor });
  const excerpt = kind === 'mentioned' ? read('excerpt') : null;
  const by = kind === 'assigned' && actor ? ` (from ${actor})` : '';
  return excerpt ? `${headline}: “${excerpt}”` : `${headline}${by}.`;
}
