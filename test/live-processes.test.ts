/**
 * Live updates across processes (issue 27): two `waymark serve` processes on one store. A person connected to
 * process A (their session cookie, as the app's EventSource sends it) receives `notifications` when they are told of
 * something that a write through process B caused, and `inbox` when a trail they can see changes through process B;
 * marking read through B lowers the count A streams. The notice is a real write's: transfer_step naming her. Each
 * process reads the store with its own poller, so nothing passes between the processes but the store.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { RemoteClient } from './faults/client.js';
import { openLive, type LiveReader } from './live-client.js';
import { startServe, stopServe, type Served } from './serve.js';
import { signedIn } from './web-client.js';

describe.each(ENGINES)('live updates from two waymark serve processes on one %s store', (engine) => {
  let ts: TestStore | undefined;
  const served: Served[] = [];
  const streams: LiveReader[] = [];
  const clients: RemoteClient[] = [];

  afterEach(async () => {
    for (const s of streams.splice(0)) s.close();
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(served.splice(0).map((s) => stopServe(s)));
    await ts?.close();
  });

  it('a person connected to one process is told of a change made through the other', { timeout: 60_000 }, async () => {
    ts = await createTestStore(engine);
    const services = createServices(ts.store);
    const { accountId, token } = await services.auth.init();
    const owner = token?.token as string;
    const ann = await services.auth.createToken({ accountId, permission: 'edit', capabilities: ['waymark.read', 'waymark.run', 'waymark.author'], kind: 'person', name: 'Ann Lee' });
    const env = { ...ts.env, WAYMARK_LIVE_POLL_MS: '100' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [a, b] = served.map((s) => new URL(s.url).origin) as [string, string];
    expect(a).not.toBe(b);

    // Ann's app is open on process A; her second tab is on process B.
    const annOnA = await signedIn(services, a, ann.principalId);
    const annOnB = await signedIn(services, b, ann.principalId);
    const live = await openLive(`${a}/api/v1/live`, { cookie: [...annOnA.cookies].map(([k, v]) => `${k}=${v}`).join('; ') });
    streams.push(live);
    expect(live.status).toBe(200);
    expect((await live.next('notifications')).data).toEqual({ unread_count: 0, latest_id: null });

    // The owner runs a trail through process B (MCP over HTTP): Ann's inbox on A hears of it.
    const owners = await RemoteClient.connect(served[1]!.url, owner);
    clients.push(owners);
    const ok = async <T>(tool: string, args: Record<string, unknown>): Promise<T> => {
      const envelope = await owners.call<T>(tool, args);
      if (!envelope.success) throw new Error(`${tool}: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    };
    const { bit_id } = await ok<{ bit_id: string }>('add_bit', { bit_title: 'Sign the contract', bit_body: 'Sign it.' });
    const { flow_id } = await ok<{ flow_id: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: bit_id });
    const trail = await ok<{ trail_id: string; current_step: { step_id: string } }>('start_trail', { flow_id, trail_title: 'Onboarding Ann' });
    expect((await live.next('inbox')).data).toEqual({ seq: expect.any(Number) });

    // The owner hands the step to Ann through process B (transfer_step), which tells her in its transaction.
    await ok('transfer_step', { trail_id: trail.trail_id, reason: 'Ann signs for the team.', to: `person:${ann.principalId}` });
    const told = await live.next('notifications');
    expect(told.data).toEqual({ unread_count: 1, latest_id: expect.any(String) });

    // She reads it in the tab on B: the count on A follows.
    expect(await annOnB.ok(annOnB.post('/notifications/read', { all: true }))).toEqual({ marked: 1, unread_count: 0 });
    expect((await live.next('notifications')).data).toEqual({ unread_count: 0, latest_id: told.data.latest_id });

    // Process A stops with her stream open: the stream ends, and the stop does not wait on it.
    const started = Date.now();
    await stopServe(served[0]);
    await live.ended;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
