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

function text(summary: NoticeSummary, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = summary[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** The due time a notice names, if it names one as an ISO date-time. */
export function noticeDue(summary: NoticeSummary): string | null {
  const due = text(summary, 'due_date_time_utc', 'due_at', 'due');
  return due !== null && !Number.isNaN(Date.parse(due)) ? due : null;
}

/** One sentence: what happened, to which step of which trail, and who did it where someone did. */
export function noticeSentence(kind: NotificationKind, summary: NoticeSummary, actorName: string | null): string {
  const step = text(summary, 'step_title', 'bit_title');
  const trail = text(summary, 'trail_title') ?? text(summary, 'flow_title');
  const group = text(summary, 'group_name');
  const where = `${step ? `“${step}”` : 'a step'}${trail ? ` in ${trail}` : ''}`;
  switch (kind) {
    case 'assigned': {
      const by = actorName ? ` (from ${actorName})` : '';
      return group ? `A step for ${group}, a group you are in: ${where}${by}.` : `You have a step to do: ${where}${by}.`;
    }
    case 'mentioned': {
      const excerpt = text(summary, 'excerpt', 'comment_excerpt');
      return `${actorName ?? text(summary, 'actor_name', 'commenter_name') ?? 'Someone'} mentioned you on ${where}${excerpt ? `: “${excerpt}”` : '.'}`;
    }
    case 'step_overdue':
      return `Overdue: ${where}.`;
    case 'trail_overdue':
      return trail ? `Overdue: the trail ${trail}.` : 'Overdue: a trail of yours.';
  }
}
