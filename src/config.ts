/**
 * Process-wide configuration read once from the environment. The brand is the one value every
 * capability name and anchor scheme is derived from (CONTRACT.md, "Brand").
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brand } from './brand.js';

export { brand, nodeScheme } from './brand.js';

/**
 * The package's folder and version, from the package.json above this file: src/ when run from the sources,
 * dist/server/ when built, so the folder is one or two levels up.
 */
function readPackage(): { root: URL; version: string } {
  for (const up of ['../', '../../']) {
    const root = new URL(up, import.meta.url);
    const url = new URL('package.json', root);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version: string };
    if (pkg.name === 'waymark') return { root, version: pkg.version };
  }
  throw new Error('waymark: package.json not found beside the sources');
}

const PACKAGE = readPackage();

/** The sample flow a new account can add (issue 28): a folder of the export format, shipped with the package. */
export function sampleFolder(): string {
  return fileURLToPath(new URL('examples/sample/', PACKAGE.root));
}

/** The brand as people read it on pages (`Waymark` by default); the lowercase word stays in names and schemes. */
export const productName = brand.charAt(0).toUpperCase() + brand.slice(1);

/** The web app's build, dist/web (WAYMARK_WEB_ROOT moves it): the /app files and the step form's MCP App. */
export function webRoot(): string {
  return process.env.WAYMARK_WEB_ROOT || fileURLToPath(new URL('dist/web/', PACKAGE.root));
}
export const version = PACKAGE.version;

export const CAPABILITY_KINDS = ['author', 'read', 'run'] as const;
export type CapabilityKind = (typeof CAPABILITY_KINDS)[number];

export function capabilityName(kind: CapabilityKind): string {
  return `${brand}.${kind}`;
}

export function allCapabilityNames(): string[] {
  return CAPABILITY_KINDS.map(capabilityName);
}

/**
 * Mail (issue 27): what a person is told also goes by email when an SMTP server is configured. Every serving
 * process runs a mailer (services/notifications/mailer.ts) over the notifications recorded `pending`.
 *
 * - WAYMARK_SMTP_URL: the SMTP server, `smtp://host:port` (STARTTLS when offered) or `smtps://user:pass@host:465`
 *   (nodemailer's URL form, options as query parameters); unset: no mail, notifications stay in the app.
 * - WAYMARK_MAIL_FROM: the From address, default `Waymark <waymark@localhost>` (the product's name).
 * - WAYMARK_MAIL_POLL_MS: how often a mailer looks for mail to send (default 2000).
 * - WAYMARK_MAIL_LEASE_MS: how long a mailer holds a message it is sending before another may take it over
 *   (default 120000; longer than a send's timeouts, so a live send is never taken over).
 * - WAYMARK_MAIL_RETRY_SCALE: multiplies every retry delay (default 1, about a day of retries; tests shorten it).
 * - WAYMARK_MAIL_CONCURRENCY: messages one process sends at once (default 4).
 *
 * The overdue scheduler (services/notifications/scheduler.ts) runs in every serving process, mail or not:
 * - WAYMARK_SCHEDULER_POLL_MS: how often it looks for steps and trails past their due time (default 30000).
 */
export interface MailConfig {
  /** The SMTP server's URL, credentials included (never logged or printed: see `smtpHost`). */
  smtpUrl: string;
  from: string;
  pollMs: number;
  leaseMs: number;
  retryScale: number;
  concurrency: number;
}

export interface SchedulerConfig {
  pollMs: number;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, integer = true): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'whole ' : ''}number (got ${text})`);
  }
  return value;
}

/** The mail settings, or null when WAYMARK_SMTP_URL is unset; throws a message naming the variable when one is wrong. */
export function mailConfigFromEnv(env: NodeJS.ProcessEnv): MailConfig | null {
  const smtpUrl = env.WAYMARK_SMTP_URL;
  if (!smtpUrl) return null;
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error('WAYMARK_SMTP_URL must be a URL such as smtp://mail.example.com:587 or smtps://user:password@mail.example.com');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error(`WAYMARK_SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`);
  if (!url.hostname) throw new Error('WAYMARK_SMTP_URL names no host');
  return {
    smtpUrl,
    from: env.WAYMARK_MAIL_FROM || `${productName} <${brand}@localhost>`,
    pollMs: positiveNumber(env, 'WAYMARK_MAIL_POLL_MS', 2000),
    leaseMs: positiveNumber(env, 'WAYMARK_MAIL_LEASE_MS', 120_000),
    retryScale: positiveNumber(env, 'WAYMARK_MAIL_RETRY_SCALE', 1, false),
    concurrency: positiveNumber(env, 'WAYMARK_MAIL_CONCURRENCY', 4),
  };
}

/** The SMTP server as people may read it (banner, logs): scheme, host and port, never the credentials. */
export function smtpHost(config: MailConfig): string {
  const url = new URL(config.smtpUrl);
  return `${url.protocol}//${url.host}`;
}

export function schedulerConfigFromEnv(env: NodeJS.ProcessEnv): SchedulerConfig {
  return { pollMs: positiveNumber(env, 'WAYMARK_SCHEDULER_POLL_MS', 30_000) };
}

/** Whether this server mails (WAYMARK_SMTP_URL is set): an invitation is then mailed, not shown (issue 28). */
export function mailConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.WAYMARK_SMTP_URL);
}
