/**
 * A webhook receiver on this machine for the tests, the fault run and the bench (issue 29): one HTTP server, one
 * path per endpoint (`/hook/<name>`), each with the secrets it verifies with and how it answers. Every request is
 * verified with the `standardwebhooks` library (not Waymark's code) and kept: its webhook-id, the event's seq and
 * type, what was answered, how many requests of the same endpoint were in flight when it came (a lease that holds
 * keeps that at 1), and, when asked and the system shows it (Linux /proc), which process sent it.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { subscribed, typeOf } from '../src/services/webhooks/event-types.js';
import { eventsAfter } from '../src/store/repositories/events.repo.js';
import type { Store } from '../src/store/store.js';

export interface Arrival {
  endpoint: string;
  /** The webhook-id header: the event's id. */
  id: string;
  seq: number;
  type: string;
  /** The status answered. */
  status: number;
  verified: boolean;
  /** Requests of this endpoint in flight when it came, itself included. */
  inFlight: number;
  /** The sending process, when `senders` was given and /proc told. */
  pid?: number;
  at: number;
}

interface Path {
  secrets: string[];
  /** The status to answer (2xx accepts). */
  answer: (arrival: Omit<Arrival, 'status' | 'at'>) => number;
  /** How long it takes to answer (a receiver doing its work). */
  delayMs: number;
  inFlight: number;
}

export class WebhookReceiver {
  readonly arrivals: Arrival[] = [];
  /** Arrivals kept: a bench counts without keeping each one. */
  keep = true;
  counted = 0;
  private readonly paths = new Map<string, Path>();
  private server!: Server;
  private port = 0;
  /** Processes whose sockets identify a request's sender. */
  senders: number[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      const name = /^\/hook\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
      const path = this.paths.get(name);
      if (path) path.inFlight++;
      const inFlight = path?.inFlight ?? 0;
      // Answered, or cut off (a sender killed mid-request): no longer in flight.
      res.once('close', () => {
        if (path) path.inFlight--;
      });
      const pid = this.senders.length > 0 ? senderPid(req, this.port, this.senders) : undefined;
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const verified = (path?.secrets ?? []).some((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        let seq = -1;
        let type = '';
        try {
          const payload = JSON.parse(body) as { type: string; data: { seq: number } };
          seq = payload.data.seq;
          type = payload.type;
        } catch {
          // kept as unverified below
        }
        const base = { endpoint: name, id: headers['webhook-id'] ?? '', seq, type, verified, inFlight, ...(pid !== undefined ? { pid } : {}) };
        const status = path && verified ? path.answer(base) : 401;
        this.counted++;
        if (this.keep) this.arrivals.push({ ...base, status, at: performance.now() });
        // Answered after a turn of the event loop: a second sender of the same endpoint, if any, is then in flight too.
        const reply = () => res.writeHead(status).end();
        if (path?.delayMs) setTimeout(reply, path.delayMs);
        else setImmediate(reply);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The URL of endpoint `name`, which answers `answer` (default 204) to requests signed with one of `secrets`. */
  endpoint(name: string, answer: Path['answer'] = () => 204): string {
    this.paths.set(name, { secrets: [], answer, delayMs: 0, inFlight: 0 });
    return `http://127.0.0.1:${this.port}/hook/${name}`;
  }

  setSecret(name: string, secret: string): void {
    const path = this.paths.get(name);
    if (path) path.secrets = [secret];
  }

  setAnswer(name: string, answer: Path['answer']): void {
    const path = this.paths.get(name);
    if (path) path.answer = answer;
  }

  setDelay(name: string, ms: number): void {
    const path = this.paths.get(name);
    if (path) path.delayMs = ms;
  }

  of(name: string): Arrival[] {
    return this.arrivals.filter((a) => a.endpoint === name);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** What a receiver saw of one endpoint, against the events it had to get (seq ascending). */
export interface EndpointFindings {
  /** Events it had to get. */
  expected: number;
  /** Requests, accepted ones, and events accepted more than once. */
  requests: number;
  accepted: number;
  accepted_twice: number;
  /** Expected events never accepted. */
  missing: string[];
  /** Arrivals whose id is no event it had to get (another account's, a refused write's, a type never sent). */
  unknown: string[];
  /** Arrivals that came before an earlier event of the endpoint had been accepted, or out of seq order. */
  out_of_order: string[];
  unverified: number;
  /** The most requests of the endpoint in flight at once. */
  max_in_flight: number;
}

/** Holds the arrivals of one endpoint against the events it had to get: each accepted, in order, nothing else. */
export function checkArrivals(arrivals: readonly Arrival[], expected: ReadonlyArray<{ id: string; seq: number }>): EndpointFindings {
  const bySeq = [...expected].sort((a, b) => a.seq - b.seq);
  const known = new Map(bySeq.map((e) => [e.id, e.seq]));
  const acceptedCount = new Map<string, number>();
  const out: EndpointFindings = { expected: bySeq.length, requests: arrivals.length, accepted: 0, accepted_twice: 0, missing: [], unknown: [], out_of_order: [], unverified: 0, max_in_flight: 0 };
  // Every expected event below this index has been accepted.
  let through = 0;
  let lastFirst = -1;
  const seen = new Set<string>();
  for (const a of arrivals) {
    out.max_in_flight = Math.max(out.max_in_flight, a.inFlight);
    if (!a.verified) {
      out.unverified++;
      continue;
    }
    const seq = known.get(a.id);
    if (seq === undefined) {
      out.unknown.push(`${a.endpoint}: event ${a.id} (seq ${a.seq}, ${a.type}) is no event it had to get`);
      continue;
    }
    if (seq !== a.seq) out.unknown.push(`${a.endpoint}: event ${a.id} came as seq ${a.seq}, stored as ${seq}`);
    // Sent only once every earlier event of the endpoint was accepted: in order, one event at a time.
    if (bySeq[through] && seq > bySeq[through].seq) out.out_of_order.push(`${a.endpoint}: seq ${seq} came before seq ${bySeq[through].seq} was accepted`);
    if (!seen.has(a.id)) {
      if (seq < lastFirst) out.out_of_order.push(`${a.endpoint}: seq ${seq} first came after seq ${lastFirst}`);
      lastFirst = Math.max(lastFirst, seq);
      seen.add(a.id);
    }
    if (a.status >= 200 && a.status < 300) {
      const n = (acceptedCount.get(a.id) ?? 0) + 1;
      acceptedCount.set(a.id, n);
      out.accepted++;
      if (n === 2) out.accepted_twice++;
      while (bySeq[through] && acceptedCount.has(bySeq[through].id)) through++;
    }
  }
  for (const e of bySeq) if (!acceptedCount.has(e.id)) out.missing.push(`event seq ${e.seq} (${e.id}) was never accepted`);
  return out;
}

/**
 * The process among `pids` that holds the other end of the request's connection: its socket's inode from
 * /proc/net/tcp, then which process has that inode open. Undefined where /proc does not tell.
 */
function senderPid(req: IncomingMessage, receiverPort: number, pids: number[]): number | undefined {
  try {
    const remotePort = req.socket.remotePort;
    if (!remotePort) return undefined;
    const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
    const line = readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .find((f) => f[1]?.endsWith(`:${hex(remotePort)}`) && f[2]?.endsWith(`:${hex(receiverPort)}`));
    const inode = line?.[9];
    if (!inode) return undefined;
    const target = `socket:[${inode}]`;
    for (const pid of pids) {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return pid;
        } catch {
          // closed meanwhile
        }
      }
    }
  } catch {
    // not Linux, or the process is gone
  }
  return undefined;
}

/**
 * The events a subscription to `types` (at account level) must get, seq ascending: the account's events after
 * the one that recorded the subscription, of a webhook type (typeOf: a token's or a session's event is none).
 */
export async function subscribedEvents(store: Store, accountId: string, webhookId: string, types: readonly string[]): Promise<Array<{ id: string; seq: number; type: string }>> {
  const made = await store.db.selectFrom('events').select('seq').where('account_id', '=', accountId).where('resource_type', '=', 'webhook').where('resource_id', '=', webhookId).orderBy('seq').limit(1).executeTakeFirst();
  if (!made) throw new Error(`no event records webhook ${webhookId}`);
  const out: Array<{ id: string; seq: number; type: string }> = [];
  for (let after = Number(made.seq); ; ) {
    const page = await eventsAfter(store.db, accountId, after, 1000);
    for (const e of page) {
      const type = typeOf({ resource_type: e.resource_type, operation: e.operation, summary: JSON.parse(e.summary) as Record<string, unknown> });
      if (type !== null && subscribed(types, type)) out.push({ id: e.id, seq: Number(e.seq), type });
    }
    if (page.length < 1000) return out;
    after = Number(page[page.length - 1]?.seq);
  }
}
