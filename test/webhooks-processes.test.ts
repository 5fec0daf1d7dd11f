/**
 * Webhooks from several processes (issue 29): two `waymark serve` processes on one store, each running its
 * deliverer, written to through both (MCP and REST). A receiver in this process verifies every request with the
 * `standardwebhooks` library. Every event a `*` subscription must get arrives, per endpoint in seq order, each
 * accepted once and no event id sent twice (one deliverer holds an endpoint at a time: no two requests of an
 * endpoint are ever in flight together); and an endpoint that answers 500 holds up neither the other endpoint nor
 * its own later events' order, and gets them all once it answers again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import type { WebhookView, WebhookWithSecret } from '../src/services/webhooks/shapes.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { RemoteClient } from './faults/client.js';
import { startServe, stopServe, type Served } from './serve.js';
import { checkArrivals, subscribedEvents, WebhookReceiver } from './webhook-receiver.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe.each(ENGINES)('webhooks from two waymark serve processes on one %s store', (engine) => {
  let ts: TestStore | undefined;
  let receiver: WebhookReceiver | undefined;
  const served: Served[] = [];
  const clients: RemoteClient[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(served.splice(0).map((s) => stopServe(s)));
    await receiver?.close();
    await ts?.close();
  });

  it('delivers every event once, in order per endpoint, one deliverer at a time; a failing endpoint holds up no other', { timeout: 60_000 }, async () => {
    ts = await createTestStore(engine);
    const { accountId, token } = await createServices(ts.store).auth.init();
    const owner = token?.token as string;
    receiver = await new WebhookReceiver().start();
    const env = { ...ts.env, WAYMARK_WEBHOOK_ALLOW_LOOPBACK: '1', WAYMARK_WEBHOOK_POLL_MS: '50', WAYMARK_WEBHOOK_RETRY_SCALE: '0.0002' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [one, two] = served as [Served, Served];
    receiver.senders = served.map((s) => s.child.pid as number);
    const origin = (s: Served) => new URL(s.url).origin;
    const rest = async <T>(s: Served, method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${origin(s)}/api/v1${path}`, { method, headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { data: T; error?: unknown };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
      return json.data;
    };
    const viewOf = async (s: Served, id: string) => (await rest<{ webhooks: WebhookView[] }>(s, 'GET', '/webhooks')).webhooks.find((w) => w.webhook_id === id);

    // Two endpoints of everything, made through different processes; `broken` answers 500 until told otherwise.
    const steady = await rest<WebhookWithSecret>(one, 'POST', '/webhooks', { url: receiver.endpoint('steady'), event_types: ['*'] });
    const broken = await rest<WebhookWithSecret>(two, 'POST', '/webhooks', { url: receiver.endpoint('broken', () => 500), event_types: ['*'] });
    receiver.setSecret('steady', steady.secret);
    receiver.setSecret('broken', broken.secret);

    // Writes through both processes at once: two MCP clients on each, then trails over REST on the second.
    for (const s of [one, two, one, two]) clients.push(await RemoteClient.connect(s.url, owner));
    const ok = async <T>(client: RemoteClient, tool: string, args: Record<string, unknown>): Promise<T> => {
      const envelope = await client.call<T>(tool, args);
      if (!envelope.success) throw new Error(`${tool}: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    };
    const writers = clients.map(async (client, c) => {
      for (let k = 0; k < 8; k++) {
        const { bit_id } = await ok<{ bit_id: string }>(client, 'add_bit', { bit_title: `Client ${c} bit ${k}`, bit_body: `Step ${k} of client ${c}.` });
        await ok(client, 'update_bit', { bit_id, bit_title: `Client ${c} bit ${k}, renamed` });
      }
    });
    const [first] = clients as [RemoteClient];
    const { bit_id: startBit } = await ok<{ bit_id: string }>(first, 'add_bit', { bit_title: 'Start here', bit_body: 'Begin.' });
    const { flow_id } = await ok<{ flow_id: string }>(first, 'create_flow', { flow_title: 'Hooked flow', start_bit_id: startBit });
    await ok(first, 'review_flow', { flow_id, review_status: 'approved' });
    await ok(first, 'update_flow', { flow_id, is_active: true });
    for (let k = 0; k < 3; k++) {
      const { trail_id } = await rest<{ trail_id: string }>(two, 'POST', '/trails', { flow_id });
      await rest(two, 'POST', `/trails/${trail_id}/cancel`, { reason: `done ${k}` });
    }
    await Promise.all(writers);

    const expected = await subscribedEvents(ts.store, accountId, steady.webhook_id, ['*']);
    expect(expected.length).toBeGreaterThanOrEqual(4 * 16 + 4 + 6);
    const accepted = (name: string) => new Set(receiver?.of(name).filter((a) => a.status < 300).map((a) => a.id)).size;
    await until('the steady endpoint to get every event', () => accepted('steady') === expected.length);

    // The steady endpoint: every event once, in order, never two requests at once, each signature verified.
    const steadyFound = checkArrivals(receiver.of('steady'), expected);
    expect(steadyFound).toMatchObject({ expected: expected.length, requests: expected.length, accepted: expected.length, accepted_twice: 0, missing: [], unknown: [], out_of_order: [], unverified: 0, max_in_flight: 1 });
    // Meanwhile the broken one was tried again and again at its first event only: its later events wait, the steady one's did not.
    const brokenSoFar = receiver.of('broken');
    expect(brokenSoFar.length).toBeGreaterThanOrEqual(2);
    expect(new Set(brokenSoFar.map((a) => a.seq))).toEqual(new Set([expected[0]?.seq]));
    const view = await viewOf(one, broken.webhook_id);
    expect(view?.head_attempts).toBeGreaterThanOrEqual(2);
    expect(view?.last_delivery).toMatchObject({ outcome: 'failed', response_code: 500 });

    // It answers again: it gets everything, in order, each event accepted once.
    receiver.setAnswer('broken', () => 204);
    await until('the broken endpoint to catch up', () => accepted('broken') === expected.length);
    const brokenFound = checkArrivals(receiver.of('broken'), expected);
    expect(brokenFound).toMatchObject({ expected: expected.length, accepted: expected.length, accepted_twice: 0, missing: [], unknown: [], out_of_order: [], unverified: 0, max_in_flight: 1 });
    // Every refused request was of its first event; the rest are each event once.
    const refused = receiver.of('broken').filter((a) => a.status === 500);
    expect(new Set(refused.map((a) => a.seq))).toEqual(new Set([expected[0]?.seq]));
    expect(brokenFound.requests).toBe(expected.length + refused.length);
    await until('the broken endpoint to be active again', async () => (await viewOf(two, broken.webhook_id))?.status === 'active');

    // The delivery log holds each event delivered once per endpoint.
    for (const endpoint of [steady, broken]) {
      const rows = await ts.store.db.selectFrom('webhook_deliveries').select(['event_id', 'outcome']).where('endpoint_id', '=', endpoint.webhook_id).execute();
      const delivered = rows.filter((r) => r.outcome === 'delivered').map((r) => r.event_id);
      expect(new Set(delivered).size).toBe(expected.length);
      expect(delivered.length).toBe(expected.length);
    }
    // Which process sent each request (Linux /proc): both deliverers take turns; not asserted, as which one wins a
    // lease is chance.
    const byProcess = { first: 0, second: 0, unknown: 0 };
    for (const a of receiver.arrivals) byProcess[a.pid === one.child.pid ? 'first' : a.pid === two.child.pid ? 'second' : 'unknown']++;
    console.log(`${engine}: ${expected.length} events, ${receiver.arrivals.length} requests, by sending process ${JSON.stringify(byProcess)}`);

    // A clean stop (SIGTERM) of the process delivering a backlog ends its deliverer between two events, without
    // waiting for the backlog; the other process takes the endpoint over from there: nothing lost or sent twice.
    // (Which process delivers is read from /proc: Linux only.)
    if (process.platform !== 'linux') return;
    await rest(one, 'POST', `/webhooks/${steady.webhook_id}`, { status: 'disabled' });
    const backlog = 100;
    let n = 0;
    await Promise.all(clients.map(async (c) => {
      while (n < backlog) await ok(c, 'add_bit', { bit_title: `Backlog ${++n}`, bit_body: 'Later.' });
    }));
    const all = await subscribedEvents(ts.store, accountId, steady.webhook_id, ['*']);
    expect(all.length).toBe(expected.length + backlog);
    receiver.setDelay('steady', 15);
    await rest(one, 'POST', `/webhooks/${steady.webhook_id}`, { status: 'active' });
    await until('the backlog to begin', () => accepted('steady') >= expected.length + 5);
    const last = receiver.of('steady').at(-1)?.pid;
    const sender = served.find((s) => s.child.pid === last);
    expect(sender).toBeDefined();
    await stopServe(sender);
    expect(accepted('steady')).toBeLessThan(all.length - 20);
    await until('the other process to deliver the rest', () => accepted('steady') === all.length);
    expect(checkArrivals(receiver.of('steady'), all)).toMatchObject({ requests: all.length, accepted: all.length, accepted_twice: 0, missing: [], unknown: [], out_of_order: [], max_in_flight: 1 });
  });
});
