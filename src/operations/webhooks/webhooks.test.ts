/**
 * Webhooks (issue 29) on both engines: a real receiver that checks every signature with the `standardwebhooks`
 * library, the real deliverer over the real store, writes through the real MCP client and REST. Events arrive
 * once each, in order, only of the types and account subscribed; a rotation signs with both secrets; a failing
 * receiver is retried until it answers, with every attempt logged; hostile receivers cannot hold a delivery.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { WebhookDeliverer } from '../../services/webhooks/deliverer.js';
import { send } from '../../services/webhooks/send.js';
import type { DeliveryPage, WebhookPayload, WebhookView, WebhookWithSecret } from '../../services/webhooks/shapes.js';
import { WebhooksService } from '../../services/webhooks/webhooks.service.js';

interface Received {
  id: string;
  payload: WebhookPayload;
  /** Which of the secrets given verified its signature. */
  verifiedBy: string[];
}

/** A receiver on this machine: answers what `answer` says, checks signatures with the library against `secrets`. */
class Receiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) => res.writeHead(204).end();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const verifiedBy = this.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        if (verifiedBy.length > 0) this.received.push({ id: headers['webhook-id'] ?? '', payload: JSON.parse(body) as WebhookPayload, verifiedBy });
        this.answer(req, res, body);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(ENGINES)('webhooks on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let receiver: Receiver;
  let deliverer: WebhookDeliverer;

  const rest = async <T>(method: string, path: string, body?: unknown, token = h.owner.token): Promise<{ status: number; data: T; error?: { code: string } }> => {
    const res = await fetch(`${web.origin}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: T; error?: { code: string } };
    return { status: res.status, data: json.data, error: json.error };
  };

  beforeAll(async () => {
    process.env.WAYMARK_WEBHOOK_ALLOW_LOOPBACK = '1';
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    receiver = new Receiver();
    await receiver.start();
    deliverer = new WebhookDeliverer(h.store.store, h.services.webhooks, { pollMs: 20, leaseMs: 5000, concurrency: 4, retryScale: 0.0002 });
    deliverer.start();
  });
  afterAll(async () => {
    await deliverer.stop();
    await receiver.close();
    await web.close();
    await h.close();
    delete process.env.WAYMARK_WEBHOOK_ALLOW_LOOPBACK;
  });

  it('delivers each accepted change of the types subscribed, once, in order, signed by the library\'s scheme', async () => {
    const made = await rest<WebhookWithSecret>('POST', '/webhooks', { url: receiver.url, event_types: ['bit.changed', 'flow.changed', 'flow.approved', 'trail.started', 'trail.cancelled'] });
    expect(made.status).toBe(200);
    expect(made.data.secret).toMatch(/^whsec_/);
    receiver.secrets = [made.data.secret];

    const { bit_id } = await addTestBit(h, { title: 'Hooked' });
    await h.owner.client.ok('update_bit', { bit_id, bit_title: 'Hooked, renamed' });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Hook flow', start_bit_id: bit_id });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    const { trail_id } = await h.owner.client.ok<{ trail_id: string }>('start_trail', { flow_id });
    await h.owner.client.ok('cancel_trail', { trail_id, reason: 'done' });

    const got = await until(() => receiver.received.map((r) => [r.payload.type, r.payload.data.resource_id]), (l) => l.length >= 7, 'seven deliveries');
    expect(got).toEqual([
      ['bit.changed', bit_id],
      ['bit.changed', bit_id],
      ['flow.changed', flow_id],
      ['flow.approved', flow_id],
      ['flow.changed', flow_id],
      ['trail.started', trail_id],
      ['trail.cancelled', trail_id],
    ]);
    // The webhook-id is the event's id, the receiver's idempotency key; the seq rises.
    const seqs = receiver.received.map((r) => r.payload.data.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(receiver.received.every((r) => r.id === r.payload.data.event_id)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(receiver.received.length);
    // An agent sees the subscription and its health, never its secret.
    const listed = await h.owner.client.ok<{ webhooks: WebhookView[] }>('list_webhooks', {});
    expect(JSON.stringify(listed)).not.toContain(made.data.secret);
    const view = listed.webhooks.find((w) => w.webhook_id === made.data.webhook_id);
    await until(async () => (await h.owner.client.ok<{ webhooks: WebhookView[] }>('list_webhooks', {})).webhooks.find((w) => w.webhook_id === made.data.webhook_id)?.events_behind, (n) => n === 0, 'nothing behind');
    expect(view).toMatchObject({ status: 'active', last_delivery: { outcome: 'delivered' } });
    await rest('DELETE', `/webhooks/${made.data.webhook_id}`);
  });

  it('sends nothing of another account, and refuses a URL it may not send to', async () => {
    receiver.received.length = 0;
    const mine = await rest<WebhookWithSecret>('POST', '/webhooks', { url: receiver.url, event_types: ['*'] });
    receiver.secrets = [mine.data.secret];
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('Elsewhere'), permission: 'admin' });
    const theirBit = await stranger.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Not yours', bit_body: 'x' });
    const { bit_id } = await addTestBit(h, { title: 'Mine' });
    await until(() => receiver.received.length, (n) => n >= 1, 'my delivery');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received.map((r) => r.payload.data.resource_id)).toEqual([bit_id]);
    expect(receiver.received.map((r) => r.payload.data.resource_id)).not.toContain(theirBit.bit_id);
    // Another account's webhook id is not found; a non-admin may list but not make one.
    expect((await rest('DELETE', `/webhooks/${mine.data.webhook_id}`, undefined, stranger.token)).error?.code).toBe('WEBHOOK_NOT_FOUND');
    const reader = await h.principal({ capabilities: ['read', 'author'], permission: 'edit' });
    expect((await rest('POST', '/webhooks', { url: receiver.url, event_types: ['*'] }, reader.token)).error?.code).toBe('FORBIDDEN');
    for (const url of ['http://example.com/hook', 'ftp://example.com/', 'https://user:pw@example.com/', 'not a url']) {
      expect((await rest('POST', '/webhooks', { url, event_types: ['*'] })).error?.code, url).toBe('VALIDATION_ERROR');
    }
    expect((await rest('POST', '/webhooks', { url: receiver.url, event_types: ['bits.changed'] })).error?.code).toBe('VALIDATION_ERROR');
    await rest('DELETE', `/webhooks/${mine.data.webhook_id}`);
  });

  it('retries a failing receiver with backoff, in order, logging every attempt, and signs with both secrets while a rotation overlaps', async () => {
    receiver.received.length = 0;
    const made = await rest<WebhookWithSecret>('POST', '/webhooks', { url: receiver.url, event_types: ['bit.changed'] });
    receiver.secrets = [made.data.secret];
    let refusals = 3;
    receiver.answer = (_req, res) => (refusals-- > 0 ? res.writeHead(500).end('no') : res.writeHead(200).end('ok'));
    const first = await addTestBit(h, { title: 'First' });
    const second = await addTestBit(h, { title: 'Second' });
    await until(() => receiver.received.filter((r) => r.payload.type === 'bit.changed').length, (n) => n >= 5, 'the retries and the second event');
    // Every attempt of the first event reaches the receiver (its signature verified) before the second is sent.
    const order = receiver.received.map((r) => r.payload.data.resource_id);
    expect(order).toEqual([first.bit_id, first.bit_id, first.bit_id, first.bit_id, second.bit_id]);
    const log = await rest<DeliveryPage>('GET', `/webhooks/${made.data.webhook_id}/deliveries`);
    expect(log.data.deliveries.map((d) => [d.attempt, d.outcome, d.response_code]).reverse()).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'delivered', 200],
      [1, 'delivered', 200],
    ]);

    // Rotation: the next delivery verifies with the old secret and with the new one.
    const rotated = await rest<WebhookWithSecret>('POST', `/webhooks/${made.data.webhook_id}/rotate`, { overlap_hours: 1 });
    expect(rotated.data.secret).not.toBe(made.data.secret);
    expect(rotated.data.previous_secret_until).not.toBeNull();
    receiver.secrets = [made.data.secret, rotated.data.secret];
    receiver.received.length = 0;
    await addTestBit(h, { title: 'After rotation' });
    const after = await until(() => receiver.received, (l) => l.length >= 1, 'a delivery after the rotation');
    expect(after[0]?.verifiedBy.sort()).toEqual([made.data.secret, rotated.data.secret].sort());

    // Redeliver from the log, and a test event.
    const logged = (await rest<DeliveryPage>('GET', `/webhooks/${made.data.webhook_id}/deliveries`)).data.deliveries[0];
    const again = await rest<{ outcome: string; attempt: number }>('POST', `/webhooks/${made.data.webhook_id}/deliveries/${logged?.delivery_id}/redeliver`, {});
    expect(again.data.outcome).toBe('delivered');
    const test = await rest<{ outcome: string; event_type: string }>('POST', `/webhooks/${made.data.webhook_id}/test`, {});
    expect(test.data).toMatchObject({ outcome: 'delivered', event_type: 'webhook.test' });
    expect(receiver.received.at(-1)?.payload.type).toBe('webhook.test');
    receiver.answer = (_req, res) => res.writeHead(204).end();
    await rest('DELETE', `/webhooks/${made.data.webhook_id}`);
  });

  it('gives up on hostile receivers within its bounds: silence, a huge answer, a redirect, a private address', async () => {
    const policy = { allowLoopback: true, allowPrivate: false };
    const limits = { timeoutMs: 400, maxResponseBytes: 4096 };
    const hostile = createServer((req, res) => {
      if (req.url === '/silent') return; // never answers
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
          while (res.write(chunk));
          res.once('drain', pump);
        };
        return pump();
      }
      if (req.url === '/redirect') return res.writeHead(307, { location: 'http://127.0.0.1:1/' }).end();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      const silent = await send(`${base}/silent`, {}, '{}', policy, limits);
      expect(silent).toMatchObject({ ok: false, status: null });
      expect(silent.error).toContain('no answer within 400 ms');
      const huge = await send(`${base}/huge`, {}, '{}', policy, limits);
      expect(huge.ok).toBe(true);
      const redirect = await send(`${base}/redirect`, {}, '{}', policy, limits);
      expect(redirect).toMatchObject({ ok: false, status: 307 });
      expect(redirect.error).toContain('not followed');
      expect(Date.now() - started).toBeLessThan(3000);
      // Not allowed: loopback (by name or literal), link-local (metadata), private.
      const strict = { allowLoopback: false, allowPrivate: false };
      for (const url of [`http://localhost:${(hostile.address() as AddressInfo).port}/`, `${base}/`, 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.1/', 'http://[::1]:9/']) {
        const refused = await send(url, {}, '{}', strict, limits);
        expect(refused.ok, url).toBe(false);
        expect(refused.error, url).toContain('not a public one');
      }
      // Through the service: a webhook whose receiver is silent is logged failed and retried, the next event waits.
      await deliverer.stop();
      const service = new WebhooksService(h.store.store, policy, limits);
      const made = await service.create((await h.services.auth.authenticate(h.owner.token))!, { url: `${base}/silent`, event_types: ['bit.changed'] });
      await addTestBit(h, { title: 'Into silence' });
      const local = new WebhookDeliverer(h.store.store, service, { pollMs: 20, leaseMs: 5000, concurrency: 1, retryScale: 1 });
      await local.tick();
      const log = await service.deliveries((await h.services.auth.authenticate(h.owner.token))!, { webhook_id: made.webhook_id });
      expect(log.deliveries.map((d) => [d.outcome, d.error])).toEqual([['failed', 'no answer within 400 ms']]);
      const [view] = (await service.list((await h.services.auth.authenticate(h.owner.token))!)).webhooks.filter((w) => w.webhook_id === made.webhook_id);
      expect(view).toMatchObject({ head_attempts: 1, status: 'active' });
      expect(Date.parse(view?.next_attempt_date_time_utc ?? '')).toBeGreaterThan(Date.now());
      deliverer.start();
      await service.remove((await h.services.auth.authenticate(h.owner.token))!, { webhook_id: made.webhook_id });
    } finally {
      hostile.closeAllConnections();
      await new Promise((resolve) => hostile.close(resolve));
    }
  });
});
