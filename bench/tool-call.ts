/**
 * Tool-call overhead: `get_bit` of a 2 KB body and `add_bit` of a small body, over Streamable HTTP
 * (`waymark serve`) and over stdio (`waymark stdio`), against the `noop` tool of the same server (present
 * only in the server that bench/servers/waymark-with-noop.ts starts): the noop's throughput is what the
 * transport, the token check, dispatch, the SDK and the envelope allow, so the ratio is what the tool itself costs. 1 and 8 concurrent clients; the tools are
 * measured in interleaved rounds, so each sees the same machine state.
 *
 * HTTP: 1 or 8 SDK clients, each its own connection, one server process. stdio: one server process per
 * client by design, so "8 clients" is one stdio connection with 8 calls in flight (the same server-side
 * concurrency as HTTP's, on the transport an agent host uses).
 *
 * Bar: each tool's throughput at least 0.7× the noop's.
 *
 *   npx tsx bench/tool-call.ts [--quick]      writes bench/results/tool-call.json
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { bodyByteLength } from '../src/content/index.js';
import { startListening, stopChild } from './processes.js';
import { initOwner, openBenchStore, seedBodyDependencies, sizedBody, slateInput } from './bodies.js';
import { isEntry, median, quantile, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';

/** Waymark with the no-op tool beside its own (servers/waymark-with-noop.ts), from its sources. */
const SERVER = ['--import', 'tsx', fileURLToPath(new URL('./servers/waymark-with-noop.ts', import.meta.url))];
const BAR = 0.7;
const SMALL_BODY = 'Check the **pressure gauge** before you start, then write the reading in the log.';

interface Target {
  label: string;
  tool: string;
  args: () => Record<string, unknown>;
}

interface Samples {
  calls: number;
  ms: number;
  latencies: number[];
  /** CPU time of the server process and of this (client) process over the measured calls, in ms. */
  serverCpuMs: number;
  clientCpuMs: number;
  /** Calls a second in each round, to pair with the noop's round next to it. */
  roundRates: number[];
}

const emptySamples = (): Samples => ({ calls: 0, ms: 0, latencies: [], serverCpuMs: 0, clientCpuMs: 0, roundRates: [] });

/** A process's CPU time (user + system) in ms, from /proc (Linux, 100 ticks a second); NaN elsewhere. */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, WAYMARK_LOG_LEVEL: 'silent', ...extra };
}

async function call(client: Client, target: Target): Promise<void> {
  const result = await client.callTool({ name: target.tool, arguments: target.args() });
  const envelope = result.structuredContent as { success?: boolean; error?: unknown } | undefined;
  if (!envelope?.success) throw new Error(`${target.tool} failed: ${JSON.stringify(envelope?.error ?? result).slice(0, 500)}`);
}

/** Every worker calls the tool back to back until the time is up; each worker is a client, or a slot on a shared one. */
async function measure(workers: Client[], target: Target, ms: number, into: Samples, serverPid: number): Promise<void> {
  const serverCpu = processCpuMs(serverPid);
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  const end = started + ms;
  let calls = 0;
  await Promise.all(
    workers.map(async (client) => {
      while (performance.now() < end) {
        const t = performance.now();
        await call(client, target);
        into.latencies.push(performance.now() - t);
        calls++;
      }
    }),
  );
  const elapsed = performance.now() - started;
  into.calls += calls;
  into.ms += elapsed;
  into.roundRates.push((calls / elapsed) * 1000);
  into.serverCpuMs += processCpuMs(serverPid) - serverCpu;
  const client = process.cpuUsage(clientCpu);
  into.clientCpuMs += (client.user + client.system) / 1000;
}

async function benchTransport(
  transport: string,
  concurrency: number,
  workers: Client[],
  targets: Target[],
  rounds: number,
  roundMs: number,
  warmupMs: number,
  serverPid: number,
): Promise<Array<Record<string, string | number>>> {
  // Warm-up: the JIT (throughput still doubles over the first few thousand calls), the store's caches, the connections.
  for (const target of targets) await measure(workers, target, warmupMs, emptySamples(), serverPid);
  const samples = new Map<string, Samples>(targets.map((t) => [t.label, emptySamples()]));
  for (let r = 0; r < rounds; r++) {
    // Rotate the order, so no tool always runs first or last in a round.
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(r + k) % targets.length] as Target;
      await measure(workers, target, roundMs, samples.get(target.label) as Samples, serverPid);
    }
  }
  const base = samples.get('noop') as Samples;
  return targets.map((t) => {
    const s = samples.get(t.label) as Samples;
    // The median of the per-round ratios: each round of the tool is paired with the noop's round beside it,
    // so a burst of other load on the machine weighs on one pair, not on one side of the comparison.
    const ratio = median(s.roundRates.map((r, i) => r / (base.roundRates[i] as number)));
    const sorted = [...s.latencies].sort((a, b) => a - b);
    const rate = (s.calls / s.ms) * 1000;
    return {
      transport,
      clients: concurrency,
      tool: t.label,
      calls: s.calls,
      'calls/s': round(rate),
      'p50 ms': round(quantile(sorted, 0.5)),
      'p99 ms': round(quantile(sorted, 0.99)),
      '× noop': round(ratio),
      'server CPU ms/call': round(s.serverCpuMs / s.calls),
      'client CPU ms/call': round(s.clientCpuMs / s.calls),
    };
  });
}

async function httpClients(url: string, token: string, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < n; i++) {
    const client = new Client({ name: `bench-http-${i}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(client);
  }
  return clients;
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const quick = options.quick === true;
  const rounds = quick ? 6 : 12;
  const roundMs = quick ? 250 : 600;
  const warmupMs = quick ? 1000 : 2000;
  const bs = await openBenchStore('sqlite');
  const children: ChildProcess[] = [];
  const clients: Client[] = [];
  try {
    const owner = await initOwner(bs.store);
    const body = sizedBody(2048, 2);
    await seedBodyDependencies(bs.store, owner, body);
    const added = await owner.services.bits.add(owner.actor, { bit_title: 'A 2 KB step', bit_body: slateInput(body), content_format: 'slate' });
    const stored = await owner.services.bits.get(owner.actor, { bit_id: added.bit_id });
    const markdownBytes = Buffer.byteLength(stored.bit_body as string);
    let n = 0;
    const targets: Target[] = [
      { label: 'noop', tool: 'noop', args: () => ({}) },
      { label: 'get_bit 2 KB', tool: 'get_bit', args: () => ({ bit_id: added.bit_id }) },
      { label: 'add_bit small', tool: 'add_bit', args: () => ({ bit_title: `Step ${++n}`, bit_body: SMALL_BODY, content_format: 'markdown' }) },
    ];
    const rows: Array<Record<string, string | number>> = [];

    const serve = await startListening([...SERVER, 'serve', '--port', '0'], childEnv(bs.env));
    children.push(serve.child);
    for (const concurrency of [1, 8]) {
      const workers = await httpClients(serve.url, owner.token, concurrency);
      clients.push(...workers);
      rows.push(...(await benchTransport('http', concurrency, workers, targets, rounds, roundMs, warmupMs, serve.child.pid as number)));
      console.log(`[tool-call] http × ${concurrency} done`);
    }

    const stdioTransport = new StdioClientTransport({ command: process.execPath, args: [...SERVER, 'stdio'], env: childEnv({ ...bs.env, WAYMARK_TOKEN: owner.token }), stderr: 'inherit' });
    const stdioClient = new Client({ name: 'bench-stdio', version: '1.0.0' });
    await stdioClient.connect(stdioTransport);
    clients.push(stdioClient);
    for (const concurrency of [1, 8]) {
      rows.push(...(await benchTransport('stdio', concurrency, Array.from({ length: concurrency }, () => stdioClient), targets, rounds, roundMs, warmupMs, stdioTransport.pid as number)));
      console.log(`[tool-call] stdio × ${concurrency} done`);
    }

    const bars = rows
      .filter((r) => r.tool !== 'noop')
      .map((r) => {
        const value = r['× noop'] as number;
        return { name: `${r.tool} throughput vs noop, ${r.transport}, ${r.clients} client${r.clients === 1 ? '' : 's'}`, value, bar: `≥ ${BAR}× noop`, pass: value >= BAR };
      });
    const notes = [
      `get_bit body: ${bodyByteLength(body)} bytes of stored JSON, ${markdownBytes} bytes of markdown; add_bit body: ${SMALL_BODY.length} bytes of markdown. Embedded store (SQLite), ${rounds} interleaved rounds of ${roundMs} ms per tool and setting; "× noop" is the median over rounds of the tool's throughput over the noop's in the round beside it.`,
      'HTTP is stateless: every call is a POST that builds an McpServer and a transport and checks the bearer token; the noop pays all of that too, so the ratio isolates the tool.',
      'stdio: one server process serves one client; 8 clients = 8 calls in flight on one connection.',
    ];
    const cpu = (transport: string, tool: string) => rows.find((r) => r.transport === transport && r.clients === 1 && r.tool === tool)?.['server CPU ms/call'];
    notes.push(
      `Server CPU per call (1 client): http noop ${cpu('http', 'noop')} ms, get_bit ${cpu('http', 'get_bit 2 KB')} ms, add_bit ${cpu('http', 'add_bit small')} ms; stdio noop ${cpu('stdio', 'noop')} ms, get_bit ${cpu('stdio', 'get_bit 2 KB')} ms, add_bit ${cpu('stdio', 'add_bit small')} ms. The client's CPU is in its own column: the SDK client (fetch, SSE parsing, output-schema validation) is a large part of every HTTP call.`,
    );
    const failed = bars.filter((b) => !b.pass);
    if (failed.length > 0) {
      notes.push(
        `Below the bar: ${failed.map((b) => `${b.name} (${b.value}×)`).join('; ')}. Why: the noop costs only the transport. Over stdio that is a fraction of a millisecond of CPU, so the tool's own work dominates the call. get_bit runs four queries (token, row, connection targets, reference links; Kysely's SQLite driver prepares every statement anew), renders the markdown, lists the elements, and sends back a payload several times the noop's: its server CPU per call is in the table. add_bit is bound by the disk, not the CPU: the embedded store commits with synchronous=FULL (an acknowledged write survives a crash, which the fault test requires), so each add waits for an fsync, and with 8 calls in flight on one process the commits queue behind each other. Over HTTP every call first pays several ms of server CPU for a fresh McpServer with every tool registered (the server is stateless), express and the bearer check, so the tool's share is smaller and the ratio nearer or above the bar. The machine has 2 CPUs shared by client, server and other work (load average ${loadavg()[0]?.toFixed(1)} at the end of this run), so single ratios move by ±0.1–0.2 between runs.`,
      );
    }
    const result: BenchResult = { name: 'tool-call', rows, bars, notes };
    writeResult(result);
    return result;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const child of children) await stopChild(child);
    await bs.dispose();
  }
}

if (isEntry(import.meta.url)) runAsScript(run);
