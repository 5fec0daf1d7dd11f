/**
 * The mail a person gets for a notification (issue 27): a subject and a plain text in a person's words for each
 * kind of NOTIFICATION_KINDS, a simple HTML part with every value escaped, and a link to the step in the web app.
 * A mail never carries a token, a sign-in link or any credential: the link opens the app, which asks the person
 * to sign in as it always does. Pure: the mailer reads the facts and sends what this answers.
 */
import { productName } from '../../config.js';
import { trailStepUrl, trailUrl, webAppUrl } from '../../app-address.js';
import type { NotificationKind } from '../../store/enums.js';
import { noticeHeadline, oneLine } from './words.js';

export { SUMMARY_KEYS, summaryText, noticeHeadline } from './words.js';

/** What a message says, from the notification, its summary and the store (titles as they are when it is sent). */
export interface MailFacts {
  kind: NotificationKind;
  trailId: string | null;
  /** The step the notice is about, and whether it is still the trail's current one (its page answers it). */
  stepId: string | null;
  stepIsCurrent: boolean;
  recipientName: string;
  actorName: string | null;
  trailTitle: string | null;
  flowTitle: string | null;
  stepTitle: string | null;
  groupName: string | null;
  /** ISO 8601 UTC. */
  due: string | null;
  /** A mention's words (already short: the comment's excerpt). */
  excerpt: string | null;
}

export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A due time as a person reads it, in UTC (the server does not know the reader's zone): "27 Nov 2026, 14:05 UTC". */
export function dueText(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return oneLine(iso, 40);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())} UTC`;
}

/** The trail's name as people know it: its title, else its flow's. */
function trailName(facts: MailFacts): string {
  return oneLine(facts.trailTitle ?? facts.flowTitle ?? 'a trail');
}

function stepName(facts: MailFacts): string {
  return oneLine(facts.stepTitle ?? 'a step');
}

/** The paragraphs of the message, before the link: plain sentences, the HTML part escapes each. */
function paragraphs(facts: MailFacts): string[] {
  const step = `"${stepName(facts)}"`;
  const trail = `"${trailName(facts)}"`;
  const flow = facts.flowTitle && facts.trailTitle ? ` (flow "${oneLine(facts.flowTitle)}")` : '';
  const by = facts.actorName ? oneLine(facts.actorName, 60) : null;
  const due = facts.due ? dueText(facts.due) : null;
  switch (facts.kind) {
    case 'assigned': {
      const who = facts.groupName ? `your group ${oneLine(facts.groupName, 60)}` : 'you';
      const first = by ? `${by} gave ${who} the step ${step} of the trail ${trail}${flow}.` : `The step ${step} of the trail ${trail}${flow} is for ${who}.`;
      const group = facts.groupName ? ['Whoever of the group takes it first does it; the others see who has it.'] : [];
      return [first, ...group, due ? `It is due ${due}.` : 'It has no due time.'];
    }
    case 'mentioned': {
      const excerpt = facts.excerpt ? [`"${oneLine(facts.excerpt, 300)}"`] : [];
      return [`${by ?? 'Someone'} mentioned you in a comment on the step ${step} of the trail ${trail}${flow}:`, ...excerpt];
    }
    case 'step_overdue':
      return [`The step ${step} of the trail ${trail}${flow} was due ${due ?? 'earlier'} and is not done yet.`, 'Please do it, or ask an Admin to hand it to someone else.'];
    case 'trail_overdue': {
      const at = facts.stepTitle ? ` It is at the step ${step}.` : '';
      return [`The trail ${trail}${flow} was due ${due ?? 'earlier'} and is not finished yet.${at}`];
    }
  }
}

/** Where the mail leads: the step's page while the step is the trail's current one, else the trail's page. */
export function noticeLink(facts: MailFacts, app: URL): string {
  if (!facts.trailId) return app.href;
  const onStep = facts.kind !== 'trail_overdue' && facts.stepIsCurrent;
  return onStep ? trailStepUrl(app, facts.trailId) : trailUrl(app, facts.trailId);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text into HTML text or a double-quoted attribute: the five characters that could end either, as entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** The message for `facts`; `publicBase` is where people reach the server (WAYMARK_PUBLIC_URL, else its address). */
export function composeMail(facts: MailFacts, publicBase: URL): MailMessage {
  const app = webAppUrl(publicBase);
  const link = noticeLink(facts, app);
  const action = facts.kind === 'trail_overdue' || !facts.stepIsCurrent ? 'Open the trail' : 'Open the step';
  const hello = `Hello ${oneLine(facts.recipientName, 60)},`;
  const body = paragraphs(facts);
  const footer = `${productName} tells you by email of steps for you, mentions and overdue work. Choose which of these mails you get in the app: ${app.href}`;
  const text = [hello, '', ...body.flatMap((p) => [p, '']), `${action}: ${link}`, '', '-- ', footer, ''].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>${escapeHtml(hello)}</p>`,
    ...body.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>`,
    `<p style="color:#555;font-size:small">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: noticeHeadline(facts), text, html };
}
