/**
 * Webhooks (issue 29): how fast a `waymark serve` delivers, and what subscriptions add to a write, on the embedded
 * store and on PostgreSQL. The receiver runs in this process and verifies every request with the `standardwebhooks`
 * library, as a real one would; every figure is of deliveries checked to be each event once, in order.
 *
 * - Delivered per second: endpoints subscribed to `*` are disabled, N add_bit calls are made (4 MCP clients at
 *   once), then the endpoints are enabled again (REST) and resume from the event they stopped at: the rate is the
 *   deliveries over the time from the first arrival to the last (the deliverer's poll interval before the first is
 *   not counted). One endpoint, then 4 (the deliverer works up to 4 endpoints at once; each endpoint's events go
 *   one at a time, in order).
 * - The added cost of a write: add_bit from one MCP client, one call at a time, with no subscription and with 4
 *   subscriptions to `*` being delivered to while the writes go on, in rounds (the order alternated each round).
 *   Per phase: the median add_bit latency, and the server's CPU time (/proc) over the phase's writes and, with
 *   subscriptions, until their deliveries are done, per write. The ratios are medians over rounds of with / none.
 *
 * The server runs as configured by default (a deliverer polling every second), with WAYMARK_WEBHOOK_ALLOW_LOOPBACK=1
 * so that it may send to this machine.
 *
 *   npx tsx bench/webhooks.ts [--quick]       writes bench/results/webhooks.json
 *   BENCH_WEBHOOKS_ENGINES=sqlite,postgres   the engines; WAYMARK_BENCH_DATABASE_URL an admin URL
 *                                             (default postgres://postgres@127.0.0.1:5432/test)
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { WebhookWithSecret } from '../src/services/webhooks/shapes.js';
import { checkArrivals, subscribedEvents, WebhookReceiver } from '../test/webhook-receiver.js';
import { initOwner, openBenchStore, type EngineName } from './bodies.js';
import { processCpuMs, startListening, stopChild } from './processes.js';
import { isEntry, median, quantile, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BIN = fileURLToPath(new URL('../bin/waymark.js', import.meta.url));
const SUBSCRIPTIONS = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Tools {
  addBit(title: string): Promise<void>;
  close(): Promise<void>;
}

async function connect(url: string, token: string): Promise<Tools> {
  const client = new Client({ name: 'bench-webhooks', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return {
    async addBit(title: string) {
      const result = await client.callTool({ name: 'add_bit', arguments: { bit_title: title, bit_body: 'Check the **pressure gauge** before you start, then write the reading in the log.' } });
      const envelope = result.structuredContent as { success?: boolean; error?: unknown } | undefined;
      if (!envelope?.success) throw new Error(`add_bit failed: ${JSON.stringify(envelope?.error ?? result).slice(0, 500)}`);
    },
    close: () => client.close(),
  };
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

interface EngineFigures {
  rows: BenchResult['rows'];
  details: Record<string, unknown>;
}

async function benchEngine(engine: EngineName, quick: boolean): Promise<EngineFigures> {
  const bs = await openBenchStore(engine);
  const receiver = await new WebhookReceiver().start();
  let server: Awaited<ReturnType<typeof startListening>> | undefined;
  const clients: Tools[] = [];
  try {
    const owner = await initOwner(bs.store);
    server = await startListening([BIN, 'serve', '--port', '0'], { ...bs.env, WAYMARK_WEBHOOK_ALLOW_LOOPBACK: '1' });
    const pid = server.child.pid as number;
    const origin = new URL(server.url).origin;
    const rest = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${origin}/api/v1${path}`, { method, headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as { data: T; error?: unknown };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
      return json.data;
    };
    for (let i = 0; i < 4; i++) clients.push(await connect(server.url, owner.token));
    const [writer] = clients as [Tools];
    let made = 0;
    const subscribe = async (count: number, tag: string) => {
      const endpoints: Array<{ name: string; id: string }> = [];
      for (let i = 0; i < count; i++) {
        const name = `${tag}-${++made}`;
        const hook = await rest<WebhookWithSecret>('POST', '/webhooks', { url: receiver.endpoint(name), event_types: ['*'] });
        receiver.setSecret(name, hook.secret);
        endpoints.push({ name, id: hook.webhook_id });
      }
      return endpoints;
    };
    const accepted = (name: string) => receiver.of(name).filter((a) => a.status < 300).length;
    const checkAll = async (endpoints: Array<{ name: string; id: string }>, events: number) => {
      for (const e of endpoints) {
        const expected = await subscribedEvents(bs.store, owner.accountId, e.id, ['*']);
        const found = checkArrivals(receiver.of(e.name), expected);
        if (expected.length !== events || found.accepted !== events || found.requests !== events || found.missing.length + found.unknown.length + found.out_of_order.length + found.unverified > 0) {
          throw new Error(`${engine}: endpoint ${e.name} got ${found.accepted} of ${expected.length} events (${events} written): ${JSON.stringify(found).slice(0, 600)}`);
        }
      }
    };

    // ---- delivered per second, from a backlog
    const backlog = quick ? 300 : 1000;
    const repeats = quick ? 1 : 3;
    const drains: Array<{ endpoints: number; deliveries: number; seconds: number; perSecond: number }> = [];
    for (let r = 0; r < repeats * 2; r++) {
      // 1 endpoint and 4 in turn, so that each sees the same machine.
      const count = r % 2 === 0 ? 1 : SUBSCRIPTIONS;
      const endpoints = await subscribe(count, `drain${count}`);
      for (const e of endpoints) await rest('POST', `/webhooks/${e.id}`, { status: 'disabled' });
      let n = 0;
      await Promise.all(clients.map(async (c) => {
        while (n < backlog) await c.addBit(`Backlog ${count}/${++n}`);
      }));
      const events = n;
      for (const e of endpoints) await rest('POST', `/webhooks/${e.id}`, { status: 'active' });
      await until(`${count} endpoint(s) to drain`, () => endpoints.every((e) => accepted(e.name) >= events), 600_000);
      await checkAll(endpoints, events);
      const times = endpoints.flatMap((e) => receiver.of(e.name).map((a) => a.at));
      const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
      const deliveries = events * count;
      drains.push({ endpoints: count, deliveries, seconds, perSecond: (deliveries - 1) / seconds });
      console.log(`[webhooks ${engine}] ${count} endpoint(s): ${deliveries} deliveries in ${round(seconds)} s, ${round((deliveries - 1) / seconds)}/s`);
      for (const e of endpoints) await rest('DELETE', `/webhooks/${e.id}`);
    }
    const throughput = [1, SUBSCRIPTIONS].map((count) => {
      const runs = drains.filter((d) => d.endpoints === count);
      return { endpoints: count, perSecond: median(runs.map((d) => d.perSecond)), best: Math.max(...runs.map((d) => d.perSecond)), runs };
    });

    // ---- the added cost of a write: none vs 4 subscriptions, in alternating rounds
    const rounds = quick ? 3 : 9;
    const perPhase = quick ? 60 : 100;
    const phase = async (withSubscriptions: boolean, writes: number, r: number) => {
      const endpoints = withSubscriptions ? await subscribe(SUBSCRIPTIONS, `cost${r}`) : [];
      const latencies: number[] = [];
      const cpu = processCpuMs(pid);
      for (let k = 0; k < writes; k++) {
        const t = performance.now();
        await writer.addBit(`Cost ${r} ${withSubscriptions ? 'with' : 'none'} ${k}`);
        latencies.push(performance.now() - t);
      }
      // With subscriptions, a write's cost includes its deliveries: counted until they are done.
      await until('the deliveries of a phase', () => endpoints.every((e) => accepted(e.name) >= writes), 300_000);
      const cpuPerWrite = (processCpuMs(pid) - cpu) / writes;
      if (withSubscriptions) await checkAll(endpoints, writes);
      for (const e of endpoints) await rest('DELETE', `/webhooks/${e.id}`);
      return { median: median(latencies), cpuPerWrite, latencies };
    };
    // One round unmeasured: the JIT, the store's caches.
    await phase(false, Math.ceil(perPhase / 3), -1);
    await phase(true, Math.ceil(perPhase / 3), -1);
    const measured: Array<{ none: Awaited<ReturnType<typeof phase>>; with: Awaited<ReturnType<typeof phase>> }> = [];
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 === 0;
      const a = await phase(!first, perPhase, r);
      const b = await phase(first, perPhase, r);
      measured.push(first ? { none: a, with: b } : { none: b, with: a });
    }
    const latencyRatio = median(measured.map((m) => m.with.median / m.none.median));
    const cpuRatio = median(measured.map((m) => m.with.cpuPerWrite / m.none.cpuPerWrite));
    const noneMs = median(measured.map((m) => m.none.median));
    const withMs = median(measured.map((m) => m.with.median));
    const noneCpu = median(measured.map((m) => m.none.cpuPerWrite));
    const withCpu = median(measured.map((m) => m.with.cpuPerWrite));
    console.log(`[webhooks ${engine}] add_bit median ${round(noneMs)} ms without, ${round(withMs)} ms with ${SUBSCRIPTIONS} subscriptions (${round(latencyRatio)}×); server CPU ${round(noneCpu)} vs ${round(withCpu)} ms a write (${round(cpuRatio)}×)`);

    const rows: BenchResult['rows'] = [
      ...throughput.map((t) => ({
        engine,
        measure: `delivered per second, ${t.endpoints} endpoint${t.endpoints > 1 ? 's' : ''}`,
        value: round(t.perSecond),
        unit: 'events/s',
        detail: `${t.endpoints > 1 ? `${t.endpoints} × ` : ''}a backlog of ${backlog} events, first arrival to last; median of ${t.runs.length} (best ${round(t.best)})`,
      })),
      { engine, measure: 'add_bit median latency, no subscription', value: round(noneMs), unit: 'ms', detail: `one client, one call at a time; median of ${rounds} rounds of ${perPhase}` },
      { engine, measure: `add_bit median latency, ${SUBSCRIPTIONS} subscriptions`, value: round(withMs), unit: 'ms', detail: 'each write delivered to 4 endpoints meanwhile' },
      { engine, measure: `add_bit latency × (${SUBSCRIPTIONS} subscriptions / none)`, value: round(latencyRatio), unit: '×', detail: 'median over rounds of the ratio of the phases\' medians' },
      { engine, measure: 'server CPU a write, no subscription', value: round(noneCpu), unit: 'ms', detail: '/proc: utime + stime of the server over the phase' },
      { engine, measure: `server CPU a write, ${SUBSCRIPTIONS} subscriptions`, value: round(withCpu), unit: 'ms', detail: 'until its 4 deliveries are done' },
      { engine, measure: `server CPU a write × (${SUBSCRIPTIONS} subscriptions / none)`, value: round(cpuRatio), unit: '×', detail: 'median over rounds' },
      { engine, measure: 'server CPU a delivery, derived', value: round((withCpu - noneCpu) / SUBSCRIPTIONS), unit: 'ms', detail: `(with − none) / ${SUBSCRIPTIONS}: send, sign, log the attempt, move the cursor` },
    ];
    const details = {
      throughput,
      write_cost: measured.map((m) => Object.fromEntries((['none', 'with'] as const).map((k) => {
        const sorted = [...m[k].latencies].sort((x, y) => x - y);
        return [k, { median_ms: round(m[k].median), p10_ms: round(quantile(sorted, 0.1)), p90_ms: round(quantile(sorted, 0.9)), cpu_ms_per_write: round(m[k].cpuPerWrite) }];
      }))),
    };
    return { rows, details };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    if (server) await stopChild(server.child);
    await receiver.close();
    await bs.dispose();
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const engines = (process.env.BENCH_WEBHOOKS_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as EngineName[];
  const rows: BenchResult['rows'] = [];
  const details: Record<string, unknown> = {};
  for (const engine of engines) {
    const result = await benchEngine(engine, quick);
    rows.push(...result.rows);
    details[engine] = result.details;
  }
  const notes = [
    'Through `waymark serve` (default deliverer: polls every second, up to 4 endpoints at once, each endpoint\'s events one at a time in order) and the SDK client over Streamable HTTP; the receiver runs in the bench process on the same machine and verifies every request with the standardwebhooks library. Every figure is of deliveries checked to be each event once, in order.',
    'Delivered per second: a backlog made while the endpoints were disabled, delivered once they were enabled again; first arrival to last. With 4 endpoints, the figure is the deliveries to all four together.',
    'Cost of a write: add_bit, one call at a time, without any subscription and with 4 subscriptions to `*` being delivered to meanwhile, in alternating rounds; server CPU counted until the phase\'s deliveries are done. One client waiting for each answer leaves the server idle between calls, and the deliveries run in that time: the latency barely moves, while the CPU ratio is what a busy server pays. On SQLite each delivery commits twice (its log row, then the cursor), each an fsync (synchronous=FULL): delivered per second follows the disk (about 100/s on this machine while other work kept its disk busy). No bar: the issue asks for the ratio.',
  ];
  const result: BenchResult = { name: 'webhooks', rows, bars: [], notes };
  writeResult({ ...result, details } as BenchResult);
  return result;
}

if (isEntry(import.meta.url)) runAsScript(run);
