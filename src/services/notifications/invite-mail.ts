/**
 * The mail that invites a person (issue 28): who invited them, and their one-time sign-in link. Unlike every
 * notification mail (mail-message.ts), this one carries a credential, and must: the person has no other way into
 * the app yet, and the link is the invitation itself (an Admin who could not send it would have to pass it on by
 * hand). The link is used once and expires; the mailer erases it from the queue once the mail is settled.
 */
import { productName } from '../../config.js';
import { webAppUrl } from '../../app-address.js';
import { escapeHtml, type MailMessage } from './mail-message.js';
import { oneLine } from './words.js';

/** What the invitation's queue row holds until it is sent: the link's secret and its end. */
export interface InviteSummary {
  signin_token: string;
  expires_at: string;
  invited_by: string | null;
}

/** The address a sign-in link opens: the web app's `signin` (src/http/session/session.ts) with the link's secret. */
export function signinUrl(publicBase: URL, token: string): string {
  const url = new URL('signin', webAppUrl(publicBase));
  url.searchParams.set('token', token);
  return url.href;
}

export function composeInviteMail(recipientName: string, invite: InviteSummary, publicBase: URL): MailMessage {
  const link = signinUrl(publicBase, invite.signin_token);
  const by = invite.invited_by ? oneLine(invite.invited_by, 60) : 'An Admin';
  const until = new Date(invite.expires_at).toUTCString();
  const paragraphs = [
    `Hello ${oneLine(recipientName, 60)},`,
    `${by} invited you to ${productName}, where your team runs its processes step by step.`,
    `Open this link to sign in. It works once, until ${until}; if it has run out, ask your admin for a new one.`,
  ];
  const footer = 'Do not forward this mail: the link signs in as you.';
  const text = [...paragraphs.flatMap((p) => [p, '']), `Sign in: ${link}`, '', '-- ', footer, ''].join('\n');
  const html = [
    '<!doctype html><html><body>',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link)}">Sign in to ${escapeHtml(productName)}</a></p>`,
    `<p style="color:#555;font-size:small">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `${by} invited you to ${productName}`, text, html };
}
