/**
 * A real SMTP server for the mail tests (the smtp-server package), on a port of this machine: every message it
 * accepts, read back into its envelope, headers, subject and text and HTML parts. It can stop and start again on
 * the same port, as a mail server that goes down and comes back.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Header names lower-cased, continuation lines unfolded. */
  headers: Map<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

function unfold(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] as string, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as a non-ASCII subject is sent. */
function decodeWords(text: string): string {
  return text.replace(/=\?[^?]+\?([QB])\?([^?]*)\?=\s*(?==\?)?/gi, (_m, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
  );
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  return at < 0 ? { headers: unfold(raw), body: '' } : { headers: unfold(raw.slice(0, at)), body: raw.slice(at + 4) };
}

/** The text and HTML parts of a message: a single part, or the parts of a multipart one (nested once). */
function parts(raw: string): Array<{ type: string; content: string }> {
  const { headers, body } = splitEntity(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [{ type: type.split(';')[0]!.trim().toLowerCase(), content: decodeBody(body, headers.get('content-transfer-encoding')) }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((part) => !part.startsWith('--'))
    .flatMap((part) => parts(part.replace(/^\r\n/, '').replace(/\r\n$/, '')));
}

export function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const { headers } = splitEntity(raw);
  const found = parts(raw);
  return {
    from,
    to,
    headers,
    subject: decodeWords(headers.get('subject') ?? ''),
    // Lines travel as CRLF (RFC 5322); read back as the mailer wrote them.
    text: (found.find((p) => p.type === 'text/plain')?.content ?? '').replace(/\r\n/g, '\n'),
    html: (found.find((p) => p.type === 'text/html')?.content ?? '').replace(/\r\n/g, '\n'),
    raw,
  };
}

export class SmtpReceiver {
  readonly messages: ReceivedMail[] = [];
  /** Recipients refused for good (550), as a server answers for a mailbox that does not exist. */
  readonly refused = new Set<string>();
  private server: SMTPServer | undefined;
  port = 0;

  /** Listens on `port` (0: one the system chooses, kept for later starts). */
  async start(port = this.port): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 200,
      onRcptTo: (address, _session, callback) => {
        if (!this.refused.has(address.address)) return callback();
        callback(Object.assign(new Error(`No such mailbox: ${address.address}`), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          this.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), from, session.envelope.rcptTo.map((r) => r.address)));
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and ends the connections open now: a mail server gone down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The messages of a notification, by the header the mailer names it with. */
  of(notificationId: number): ReceivedMail[] {
    return this.messages.filter((m) => m.headers.get('x-waymark-notification') === String(notificationId));
  }
}
