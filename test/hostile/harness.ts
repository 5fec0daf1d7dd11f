/**
 * The hostile-tenant harness (issue "No single request may freeze or kill the server"): a real
 * `waymark serve` child process on a real store, attacked over plain HTTP, while a prober asks
 * `/healthz` every few milliseconds and the child's peak resident memory is read from /proc.
 *
 * Attacks are sent as raw JSON-RPC `tools/call` posts (the server is stateless, so no session is
 * needed), which lets a test send bodies far larger than a well-behaved client would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { createServices, type Services } from '../../src/services/index.js';
import { createTestStore, type Engine, type TestStore } from '../engines.js';
import { startServe } from '../serve.js';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;

/** The bound every request must keep: no /healthz answer waits longer than this while an attack runs. */
export const HEALTH_BOUND_MS = 250;
/** Memory a request may add on top of idle: at most this many times its own size. */
export const MEMORY_FACTOR = 20;

/** Whether the long form runs (`npm run test:hostile`): every attack at the largest size the contract allows. */
export const LONG = process.env.WAYMARK_HOSTILE_LONG === '1';

export interface HostileServer {
  engine: Engine;
  base: URL;
  mcpUrl: URL;
  /** The owner's token (Admin, every capability). */
  token: string;
  accountId: string;
  services: Services;
  child: ChildProcess;
  pid: number;
  /** Tokens for another principal of the owner's account, or of a new account. */
  newToken(options?: { accountId?: string; permission?: 'view' | 'edit' | 'admin'; capabilities?: string[]; kind?: 'agent' | 'person' }): Promise<string>;
  close(): Promise<void>;
}

export async function startHostileServer(engine: Engine, env: Record<string, string> = {}): Promise<HostileServer> {
  const store: TestStore = await createTestStore(engine);
  const services = createServices(store.store);
  const first = await services.auth.init();
  const token = first.token?.token ?? '';
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, ...store.env, WAYMARK_LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const mcp = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
  const mcpUrl = new URL(mcp);
  const server: HostileServer = {
    engine,
    base: new URL('/', mcpUrl),
    mcpUrl,
    token,
    accountId: first.accountId,
    services,
    child,
    pid: child.pid as number,
    async newToken(options = {}) {
      const issued = await services.auth.createToken({
        accountId: options.accountId ?? first.accountId,
        permission: options.permission ?? 'admin',
        capabilities: options.capabilities ?? ['waymark.author', 'waymark.read', 'waymark.run'],
        kind: options.kind ?? 'agent',
      });
      return issued.token;
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      await store.close();
    },
  };
  await warmUp(server);
  return server;
}

/**
 * Ordinary traffic before any measurement, so that "idle" is a server that has served calls: its code
 * compiled, its heap's spaces grown to their working size and its conversion threads started (each a one-time
 * cost of 10–20 MB that a first measured call would otherwise be charged with, more or less of it depending on
 * how the process started and the collector's timing).
 */
async function warmUp(server: HostileServer): Promise<void> {
  // In an account of its own, so that the tests' account holds only what they wrote.
  const token = await server.newToken({ accountId: await server.services.auth.createAccount('warm-up') });
  await callTool(server, 'describe_platform', {}, token);
  const body = 'A paragraph of ordinary prose for the warm-up.\n\n'.repeat(6000);
  const added = await callTool(server, 'add_bit', { bit_title: 'warm-up', bit_body: body, content_format: 'markdown' }, token);
  const bitId = added.envelope?.data?.bit_id;
  if (typeof bitId !== 'string') throw new Error(`warm-up add_bit failed: ${JSON.stringify(added.envelope?.error ?? added.rpcError)}`);
  await callTool(server, 'get_bit', { bit_id: bitId }, token);
  // Requests of many small values, refused by the tool's schema once parsed: the event loop's own young
  // generation grows to its working size on them (a bundled server starts with little garbage of its own).
  const manyValues = `{"bit_title":"warm-up","bit_body":"x","bit_categories":${repeatJson('"category"', 60_000)}}`;
  for (let i = 0; i < 3; i++) await callTool(server, 'add_bit', manyValues, token);
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** One HTTP request with a body given as a string or buffer; the answer read whole. */
export function rawRequest(url: URL, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface ToolAnswer {
  status: number;
  /** The envelope (structuredContent), when the call reached the tool. */
  envelope?: { success: boolean; data?: Record<string, unknown>; error?: { code: string; message: string; status: number; details?: Record<string, unknown> } };
  /** The JSON-RPC error, when the call did not reach the tool. */
  rpcError?: { code: number; message: string };
  /** Bytes of the whole HTTP answer. */
  bytes: number;
}

/** `tools/call` as a raw JSON-RPC post; `args` may be a prebuilt JSON text to send huge arguments cheaply. */
export async function callTool(server: HostileServer, name: string, args: Record<string, unknown> | string, token = server.token): Promise<ToolAnswer> {
  const argsJson = typeof args === 'string' ? args : JSON.stringify(args);
  const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argsJson}}}`;
  const res = await rawRequest(server.mcpUrl, { headers: { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' }, body });
  const bytes = Buffer.byteLength(res.text);
  const json = parseRpc(res);
  if (!json) return { status: res.status, bytes };
  if (json.error) return { status: res.status, rpcError: json.error, bytes };
  return { status: res.status, envelope: json.result?.structuredContent, bytes };
}

interface RpcMessage {
  result?: { structuredContent?: ToolAnswer['envelope'] };
  error?: { code: number; message: string };
}

function parseRpc(res: RawResponse): RpcMessage | null {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('text/event-stream')) {
    const data = res.text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .pop();
    return data ? (JSON.parse(data) as RpcMessage) : null;
  }
  if (type.includes('application/json')) return JSON.parse(res.text) as RpcMessage;
  return null;
}

/** Calls that must succeed: their data. */
export async function ok(server: HostileServer, name: string, args: Record<string, unknown>, token?: string): Promise<Record<string, unknown>> {
  const answer = await callTool(server, name, args, token);
  if (!answer.envelope?.success) throw new Error(`${name} failed: ${JSON.stringify(answer).slice(0, 1000)}`);
  return answer.envelope.data ?? {};
}

function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

export interface AttackMeasure<T> {
  result: T;
  /** The longest a /healthz probe waited while the attack ran. */
  maxHealthMs: number;
  /** Probes sent and answered while the attack ran. */
  probes: number;
  /** Resident memory before the attack, and the peak while it ran (bytes). */
  idleRss: number;
  peakRss: number;
  /** What the attack added on top of idle (bytes). */
  addedRss: number;
  elapsedMs: number;
}

/**
 * The /healthz prober, on a thread of its own: on the test's thread its waits also counted the test's own work
 * (reading and parsing a 14 MB answer took this process 50–100 ms), not only the server's.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
let done = false;
let maxHealthMs = 0;
let probes = 0;
parentPort.once('message', () => { done = true; });
const probe = () => new Promise((resolve, reject) => {
  const req = request(workerData.url, { method: 'GET' }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end();
});
(async () => {
  while (!done) {
    const started = performance.now();
    const status = await probe();
    if (status !== 200) throw new Error('/healthz answered ' + status + ' during the attack');
    const waited = performance.now() - started;
    probes++;
    if (waited > maxHealthMs) maxHealthMs = waited;
    if (probes === 1) parentPort.postMessage('ready');
    await new Promise((r) => setTimeout(r, 5));
  }
  parentPort.postMessage({ maxHealthMs, probes });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

type ProbeResult = { maxHealthMs: number; probes: number };

/** Starts probing; resolves once the first probe is answered, so the attack starts under a running prober. */
async function startProber(url: URL): Promise<{ stop(): Promise<ProbeResult> }> {
  const worker = new Worker(PROBER, { eval: true, workerData: { url: url.href } });
  let ready: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const answer = new Promise<ProbeResult>((resolve, reject) => {
    worker.on('message', (m: 'ready' | (ProbeResult & { error?: string })) => {
      if (m === 'ready') ready();
      else if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the /healthz prober exited (${code}) without its result`)));
  });
  try {
    await Promise.race([started, answer]);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  let stopped: Promise<ProbeResult> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        worker.postMessage('stop');
        try {
          return await answer;
        } finally {
          await worker.terminate();
        }
      })();
      return stopped;
    },
  };
}

/**
 * Runs an attack while probing /healthz back to back (one probe at a time, so a blocked event loop shows
 * as one long wait), and reads the child's peak RSS (VmHWM, reset before the attack through clear_refs).
 */
export async function underAttack<T>(server: HostileServer, attack: () => Promise<T>): Promise<AttackMeasure<T>> {
  // Let garbage of earlier work go before idle is read: a few quiet probes.
  for (let i = 0; i < 3; i++) await rawRequest(new URL('/healthz', server.base), { method: 'GET' });
  writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  const idleRss = rssKb(server.pid, 'VmRSS') * 1024;
  const prober = await startProber(new URL('/healthz', server.base));
  const started = performance.now();
  let result: T;
  try {
    result = await attack();
  } finally {
    await prober.stop();
  }
  const { maxHealthMs, probes } = await prober.stop();
  const elapsedMs = performance.now() - started;
  const peakRss = rssKb(server.pid, 'VmHWM') * 1024;
  return { result, maxHealthMs, probes, idleRss, peakRss, addedRss: Math.max(0, peakRss - idleRss), elapsedMs };
}

/** A JSON array text of `count` copies of `item` without building the array in this process. */
export function repeatJson(item: string, count: number): string {
  return `[${`${item},`.repeat(count - 1)}${item}]`;
}

/**
 * Everything `waymark serve` prints (stdout and stderr, at its default log level) from its start until it has
 * answered one /healthz: what a person sees after `npm start`.
 */
export async function serveStartOutput(engine: Engine): Promise<string> {
  const store = await createTestStore(engine);
  // Logs as a user sees them (the default level), not silenced.
  const served = await startServe({ ...store.env, WAYMARK_LOG_LEVEL: 'info' });
  try {
    await rawRequest(new URL('/healthz', served.url), { method: 'GET' });
    return served.out();
  } finally {
    served.child.kill('SIGKILL');
    if (served.child.exitCode === null && served.child.signalCode === null) await once(served.child, 'exit');
    await store.close();
  }
}

/**
 * hostile-trails: what any series of ordinary calls adds to the resident set before V8 collects (measured:
 * 300 small update_flow calls +13 MB, one get_flow +5 MB). A bound of MEMORY_FACTOR times a small request
 * is below it, so bounds are never taken lower than this.
 */
export const RSS_NOISE = 16 * 1024 * 1024;

/** The memory a call may add that brings or reads `bytes`: MEMORY_FACTOR times that, and never below RSS_NOISE. */
export function memoryBound(bytes: number): number {
  return Math.max(MEMORY_FACTOR * bytes, RSS_NOISE);
}
