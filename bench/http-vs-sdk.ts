/**
 * Waymark over HTTP against the official SDK's minimal stateless server (bench/servers/minimal-sdk.ts: one
 * echo tool, the same Express wiring), both real processes driven by real SDK clients:
 *
 * - `get_bit` of a 2 KB body against the baseline's `echo`;
 * - `tools/list` (27 tools) against the baseline's `tools/list` (1 tool).
 *
 * 1 and 8 clients. Rounds alternate between the two servers and each ratio is the median of the paired
 * rounds, so load elsewhere on the machine weighs on both sides. Bars (issue "What an agent pays"):
 * get_bit ≥ 0.7× echo, tools/list ≥ 0.5×.
 *
 *   npx tsx bench/http-vs-sdk.ts [--quick]     writes bench/results/http-vs-sdk.json
 *   BENCH_WORKERS=2 npx tsx bench/http-vs-sdk.ts    the same with `waymark serve --workers 2`
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { processCpuMs, startListening, stopChild } from './processes.js';
import { initOwner, openBenchStore, seedBodyDependencies, sizedBody, slateInput } from './bodies.js';
import { isEntry, median, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

const BIN = fileURLToPath(new URL('../bin/waymark.js', import.meta.url));
const MINIMAL = fileURLToPath(new URL('./servers/minimal-sdk.ts', import.meta.url));

async function clients(url: string, token: string | undefined, n: number): Promise<Client[]> {
  const list: Client[] = [];
  for (let i = 0; i < n; i++) {
    const client = new Client({ name: `bench-${i}`, version: '1.0.0' });
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    list.push(client);
  }
  return list;
}

type Op = (client: Client) => Promise<unknown>;


interface Rate {
  perSecond: number;
  /** CPU per call of the server process and of this (the clients') process, in ms. */
  serverMs: number;
  clientMs: number;
}

/** Calls a second over `ms`, every client calling back to back, and what each call cost each side in CPU. */
async function rate(workers: Client[], op: Op, ms: number, serverPid: number): Promise<Rate> {
  const started = performance.now();
  const serverBefore = processCpuMs(serverPid);
  const clientBefore = process.cpuUsage();
  const end = started + ms;
  let calls = 0;
  await Promise.all(
    workers.map(async (client) => {
      while (performance.now() < end) {
        await op(client);
        calls++;
      }
    }),
  );
  const client = process.cpuUsage(clientBefore);
  return {
    perSecond: (calls / (performance.now() - started)) * 1000,
    serverMs: (processCpuMs(serverPid) - serverBefore) / calls,
    clientMs: (client.user + client.system) / 1000 / calls,
  };
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const rounds = quick ? 5 : 10;
  const roundMs = quick ? 300 : 700;
  const bs = await openBenchStore('sqlite');
  const children: ChildProcess[] = [];
  const all: Client[] = [];
  try {
    const owner = await initOwner(bs.store);
    const body = sizedBody(2048, 2);
    await seedBodyDependencies(bs.store, owner, body);
    const added = await owner.services.bits.add(owner.actor, { bit_title: 'A 2 KB step', bit_body: slateInput(body), content_format: 'slate' });
    const workers = process.env.BENCH_WORKERS ?? '1';
    const waymark = await startListening([BIN, 'serve', '--port', '0', '--workers', workers], bs.env);
    const minimal = await startListening(['--import', 'tsx', MINIMAL], {});
    children.push(waymark.child, minimal.child);

    const getBit: Op = async (c) => {
      const result = await c.callTool({ name: 'get_bit', arguments: { bit_id: added.bit_id } });
      if (result.isError) throw new Error(`get_bit failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    };
    const echo: Op = (c) => c.callTool({ name: 'echo', arguments: { text: 'hello' } });
    const list: Op = (c) => c.listTools();
    const pairs = [
      { name: 'get_bit vs echo', ours: getBit, theirs: echo, bar: 0.7 },
      { name: 'tools/list vs tools/list', ours: list, theirs: list, bar: 0.5 },
    ];
    const rows: BenchResult['rows'] = [];
    const bars: BenchResult['bars'] = [];
    for (const n of [1, 8]) {
      const ours = await clients(waymark.url, owner.token, n);
      const theirs = await clients(minimal.url, undefined, n);
      all.push(...ours, ...theirs);
      const oursPid = waymark.child.pid as number;
      const theirPid = minimal.child.pid as number;
      for (const pair of pairs) {
        await rate(ours, pair.ours, roundMs, oursPid);
        await rate(theirs, pair.theirs, roundMs, theirPid);
        const oursRates: Rate[] = [];
        const theirRates: Rate[] = [];
        for (let r = 0; r < rounds; r++) {
          if (r % 2 === 0) {
            oursRates.push(await rate(ours, pair.ours, roundMs, oursPid));
            theirRates.push(await rate(theirs, pair.theirs, roundMs, theirPid));
          } else {
            theirRates.push(await rate(theirs, pair.theirs, roundMs, theirPid));
            oursRates.push(await rate(ours, pair.ours, roundMs, oursPid));
          }
        }
        const ratio = median(oursRates.map((v, i) => v.perSecond / (theirRates[i] as Rate).perSecond));
        const cpu = (list: Rate[], side: 'serverMs' | 'clientMs') => round(median(list.map((r) => r[side])));
        rows.push({
          clients: n,
          comparison: pair.name,
          'waymark calls/s': round(median(oursRates.map((r) => r.perSecond))),
          'SDK minimal calls/s': round(median(theirRates.map((r) => r.perSecond))),
          ratio: round(ratio),
          'server CPU ms/call (waymark / minimal)': `${cpu(oursRates, 'serverMs')} / ${cpu(theirRates, 'serverMs')}`,
          'SDK client CPU ms/call (waymark / minimal)': `${cpu(oursRates, 'clientMs')} / ${cpu(theirRates, 'clientMs')}`,
        });
        bars.push({ name: `${n} client${n > 1 ? 's' : ''}: ${pair.name}`, value: round(ratio), bar: `≥ ${pair.bar}×`, pass: ratio >= pair.bar });
      }
    }
    return { name: 'http-vs-sdk', rows, bars, notes: [
        `Median of ${rounds} paired rounds of ${roundMs} ms; waymark serve --workers ${workers} on SQLite, one SDK minimal process.`,
        'CPU per call: the server process (every thread, /proc, 10 ms ticks over a round) and this process, which runs the SDK clients. The baseline lists one tool of 266 bytes; Waymark lists 27 (40 KB), which its SDK client parses and checks against the spec\'s schemas (each schema node through a union of JSON value types) on every tools/list: most of the difference is on the client\'s side.',
      ] };
  } finally {
    for (const c of all) await c.close().catch(() => undefined);
    for (const child of children) await stopChild(child);
    await bs.dispose();
  }
}

if (isEntry(import.meta.url)) {
  runAsScript(async (options) => {
    const result = await run(options);
    writeResult(result);
    return result;
  });
}
