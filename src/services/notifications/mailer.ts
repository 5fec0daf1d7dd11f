/**
 * The mailer (issue 27): in every serving process when WAYMARK_SMTP_URL is set, on either engine. A notification
 * to mail is recorded `pending` in the transaction of the change that causes it (record.ts), so sending never
 * blocks or fails that write; the mailer sends it afterwards. Each message is sent by one mailer at a time under
 * a lease (mail-queue.repo.ts): of several processes polling the same queue, one takes it, and a message whose
 * mailer died comes due again when its lease runs out. A failed send is retried with exponential backoff and
 * jitter for about a day, then the message is `failed` (its error kept); a dead SMTP server delays mail and
 * loses none. Delivery is at least once: a mailer that dies between the server's acceptance and its own record
 * of it sends that message again after the lease, the only way to lose none.
 */
import { randomUUID } from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { MailConfig } from '../../config.js';
import * as queue from '../../store/repositories/mail-queue.repo.js';
import type { Store } from '../../store/store.js';
import { INVITE_MAIL_KIND, type NotificationKind } from '../../store/enums.js';
import { composeInviteMail, type InviteSummary } from './invite-mail.js';
import { composeMail, SUMMARY_KEYS, summaryText, type MailFacts } from './mail-message.js';

/** Seconds before each retry of a failed send: about 24 hours in all. */
export const MAIL_BACKOFF_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800] as const;

/** A send's own bounds: connecting, the server's greeting, and silence on the socket. All well within a lease. */
const CONNECTION_TIMEOUT_MS = 10_000;
const GREETING_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

/** How long a stopping mailer waits for the sends under way; one not done by then is sent again after its lease. */
const STOP_GRACE_MS = 3000;

/** Stored errors are for an Admin reading why mail did not go: one line, bounded. */
const ERROR_CHARS = 500;

/** The header that names the notification a message is of: a receiver (and the tests) can tell a resend. */
export const NOTIFICATION_HEADER = 'X-Waymark-Notification';

export interface MailerOptions extends MailConfig {
  /** Where people reach the server (WAYMARK_PUBLIC_URL, else its address): the links in mail. */
  publicBase: URL;
}

/** Refusals no retry will change: the server's 5xx answer to this recipient (RFC 5321, 4.2.1). */
function permanent(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return code === 'EENVELOPE' && typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
}

function errorText(error: unknown): string {
  const { code, responseCode, message } = error as { code?: string; responseCode?: number; message?: string };
  const text = [code, responseCode, message ?? String(error)].filter((p) => p !== undefined && p !== '').join(' ');
  return text.replace(/\s+/g, ' ').slice(0, ERROR_CHARS);
}

export class Mailer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly transport: Transporter;

  constructor(
    private readonly store: Store,
    private readonly options: MailerOptions,
    private readonly logger?: Logger,
  ) {
    // A connection per message, not a pool: mail comes in small numbers, and a pooled connection that died with a
    // restarted server would be one more way for a send to fail.
    this.transport = createTransport({ url: options.smtpUrl, connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: GREETING_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS });
  }

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.running = this.tick()
        .catch((err: unknown) => {
          this.logger?.error({ err }, 'mail round failed');
          return 0;
        })
        .then((taken) => {
          // A full round means more is waiting: go on at once rather than after a poll.
          if (!this.stopped) this.timer = setTimeout(loop, taken >= this.batch() ? 0 : this.options.pollMs).unref();
        });
    };
    loop();
  }

  /** Stops polling and waits briefly for the sends under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((r) => (grace = setTimeout(r, STOP_GRACE_MS)))]);
    clearTimeout(grace);
    this.transport.close();
  }

  private batch(): number {
    return this.options.concurrency * 4;
  }

  /** One round: the messages due now, a few at a time; answers how many it looked at. */
  async tick(): Promise<number> {
    const due = await queue.dueMail(this.store.db, new Date().toISOString(), this.batch());
    const waiting = [...due];
    const workers = Array.from({ length: Math.min(this.options.concurrency, waiting.length) }, async () => {
      for (let next = waiting.shift(); next && !this.stopped; next = waiting.shift()) await this.hold(next.id);
    });
    await Promise.all(workers);
    return due.length;
  }

  private async hold(id: number): Promise<void> {
    const leaseId = randomUUID();
    const now = Date.now();
    if (!(await queue.takeMail(this.store.db, id, leaseId, new Date(now).toISOString(), new Date(now + this.options.leaseMs).toISOString()))) return;
    const row = await queue.mailFacts(this.store.db, id);
    if (!row) return;
    if (!row.recipient_email) {
      // The address was removed after the notice was recorded: nothing to send to, and nothing a retry changes.
      await queue.settleMail(this.store.db, id, leaseId, { email_state: 'failed', email_next_at: null, email_error: 'The person has no email address any more; an Admin can set one.', ...erased(row) });
      return;
    }
    try {
      const message = row.kind === INVITE_MAIL_KIND ? composeInviteMail(row.recipient_name, JSON.parse(row.summary) as InviteSummary, this.options.publicBase) : composeMail(factsOf(row), this.options.publicBase);
      await this.transport.sendMail({ from: this.options.from, to: { name: row.recipient_name, address: row.recipient_email }, ...message, headers: { [NOTIFICATION_HEADER]: String(id) } });
    } catch (error) {
      await this.failed(row, leaseId, error);
      return;
    }
    await queue.settleMail(this.store.db, id, leaseId, { email_state: 'sent', email_next_at: null, email_attempts: row.email_attempts + 1, email_error: null, ...erased(row) });
  }

  private async failed(row: queue.MailFacts, leaseId: string, error: unknown): Promise<void> {
    const attempt = row.email_attempts + 1;
    const spent = attempt > MAIL_BACKOFF_SECONDS.length || permanent(error);
    const delaySeconds = MAIL_BACKOFF_SECONDS[Math.min(attempt, MAIL_BACKOFF_SECONDS.length) - 1] ?? 0;
    const jitter = 0.8 + Math.random() * 0.4;
    const next = new Date(Date.now() + delaySeconds * 1000 * this.options.retryScale * jitter).toISOString();
    const text = errorText(error);
    await queue.settleMail(this.store.db, row.id, leaseId, { email_state: spent ? 'failed' : 'pending', email_attempts: attempt, email_next_at: spent ? null : next, email_error: text, ...(spent ? erased(row) : {}) });
    const log = { notification_id: row.id, attempt, error: text };
    if (spent) this.logger?.warn(log, 'mail not sent; retries spent');
    else this.logger?.info(log, 'mail not sent; will retry');
  }
}

/** An invitation's link is kept only until its mail is settled (sent, or given up): then no row holds it. */
function erased(row: queue.MailFacts): { summary?: string } {
  return row.kind === INVITE_MAIL_KIND ? { summary: '{}' } : {};
}

/** The message's facts: the summary's titles as the notice was recorded, the store's where it has none. */
export function factsOf(row: queue.MailFacts): MailFacts {
  let summary: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.summary);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) summary = parsed as Record<string, unknown>;
  } catch {
    // A summary that is not JSON says nothing; the store's titles stand.
  }
  const read = (key: keyof typeof SUMMARY_KEYS) => summaryText(summary, SUMMARY_KEYS[key]);
  return {
    // An invitation is composed apart (invite-mail.ts): what comes here is a notice of the app.
    kind: row.kind as NotificationKind,
    trailId: row.trail_id,
    stepId: row.step_id,
    stepIsCurrent: row.step_id !== null && row.step_id === row.current_step_id,
    recipientName: row.recipient_name,
    actorName: read('actorName') ?? row.actor_name,
    trailTitle: read('trailTitle') ?? row.trail_title,
    flowTitle: read('flowTitle') ?? row.flow_title,
    stepTitle: read('stepTitle') ?? row.step_title,
    groupName: read('groupName'),
    due: read('due'),
    excerpt: read('excerpt'),
  };
}
