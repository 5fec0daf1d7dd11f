/**
 * The connection workload of issue 4 ("Concurrency"): several MCP clients, each in its own server process,
 * run random connect_bits / remove_connection / update_bit / archive_bit calls on a small set of bits at
 * once. The short form runs in `npm test` (test/concurrency.test.ts), the long one in `npm run bench`
 * (bench/connect.ts). Afterwards the caller checks the graph invariant (test/invariants.ts); the workload
 * itself records every answer that is neither a success nor a refusal the race can legitimately cause.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { sql } from 'kysely';
import type { Store } from '../src/store/store.js';
import type { Engine } from './engines.js';
import type { Envelope } from './harness.js';
import { startServe } from './serve.js';

export interface CallClient {
  call(name: string, args: Record<string, unknown>): Promise<Envelope>;
}

/**
 * The refusals a call may meet when other clients change the same bits between our read and our write;
 * anything else (INTERNAL_ERROR above all) is a fault.
 */
const EXPECTED: Record<string, ReadonlySet<string>> = {
  get_bit: new Set(),
  // a target or source archived meanwhile; 20 reached; a sort_order read before another append
  connect_bits: new Set(['BIT_ARCHIVED', 'CONNECTION_LIMIT_EXCEEDED', 'SORT_ORDER_CONFLICT']),
  // removed meanwhile (by another remove, an update that dropped it, or an archive's cascade)
  remove_connection: new Set(['CONNECTION_NOT_FOUND']),
  // the body read by get_bit is stale: a connection added since (CONTENT_LOSS), one removed since
  // (NOT_FOUND), the bit or a new line's target archived, 20 reached
  update_bit: new Set(['BIT_ARCHIVED', 'BIT_CONTENT_LOSS', 'CONNECTION_NOT_FOUND', 'CONNECTION_LIMIT_EXCEEDED']),
  archive_bit: new Set(),
};

export interface WorkloadOptions {
  clients: CallClient[];
  bitIds: string[];
  /** Tool calls that change something (get_bit reads in between are not counted). */
  ops: number;
  /** Calls in flight per client at once. */
  concurrencyPerClient?: number;
  seed?: number;
  /** Brings an archived bit back, so that archives do not empty the pool (REST only, so a side channel). */
  restore?: (bitId: string) => Promise<void>;
}

export interface ToolTally {
  calls: number;
  ok: number;
  refused: Record<string, number>;
  mean_ms: number;
  max_ms: number;
}

export interface WorkloadReport {
  ops: number;
  clients: number;
  in_flight: number;
  elapsed_ms: number;
  ops_per_second: number;
  tools: Record<string, ToolTally>;
  restores: number;
  /** Answers that are neither a success nor an expected refusal, and thrown transport errors. */
  unexpected: string[];
  internal_errors: number;
}

/** mulberry32: a small seeded generator, so that a failing run can be replayed with its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface BitView {
  bit_body: string;
  status: string;
  connections: Array<{ connection_id: string; target_bit_id: string }>;
}

const CONNECTION_LINE = /^\[[^\]]*\]\(bit-connection:([0-9a-f-]{36})(?:\?node=([0-9a-f-]{36})[^)]*)?\)$/;

export async function runConnectionWorkload(options: WorkloadOptions): Promise<WorkloadReport> {
  const rand = random(options.seed ?? 1);
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const inFlight = options.concurrencyPerClient ?? 2;
  const tools: Record<string, ToolTally> = {};
  const unexpected: string[] = [];
  let internal = 0;
  let restores = 0;
  let remaining = options.ops;

  const call = async (client: CallClient, name: string, args: Record<string, unknown>): Promise<Envelope | null> => {
    const tally = (tools[name] ??= { calls: 0, ok: 0, refused: {}, mean_ms: 0, max_ms: 0 });
    tally.calls++;
    let envelope: Envelope;
    const started = performance.now();
    try {
      envelope = await client.call(name, args);
    } catch (error) {
      unexpected.push(`${name}: threw ${(error as Error).message}`);
      return null;
    } finally {
      const ms = performance.now() - started;
      tally.mean_ms += (ms - tally.mean_ms) / tally.calls;
      tally.max_ms = Math.max(tally.max_ms, Math.round(ms));
    }
    if (envelope.success) {
      tally.ok++;
      return envelope;
    }
    const code = envelope.error?.code ?? 'none';
    tally.refused[code] = (tally.refused[code] ?? 0) + 1;
    if (code === 'INTERNAL_ERROR') internal++;
    if (!EXPECTED[name]?.has(code)) unexpected.push(`${name} ${JSON.stringify(args).slice(0, 200)}: ${code} ${envelope.error?.message ?? ''}`);
    return envelope;
  };

  const read = async (client: CallClient, bitId: string): Promise<BitView | null> => {
    const envelope = await call(client, 'get_bit', { bit_id: bitId });
    return envelope?.success ? (envelope.data as unknown as BitView) : null;
  };

  /** A body as get_bit printed it, edited the way an agent would: lines added, dropped, moved, flagged. */
  const update = async (client: CallClient, bitId: string) => {
    const bit = await read(client, bitId);
    if (!bit) return;
    const blocks = bit.bit_body.replace(/\n$/, '').split('\n\n');
    const lines = blocks.map((b, i) => ({ i, m: CONNECTION_LINE.exec(b) })).filter((x) => x.m?.[2]);
    const removeIds: string[] = [];
    const roll = rand();
    if (roll < 0.35 || lines.length === 0) {
      for (let n = 1 + Math.floor(rand() * 2); n > 0; n--) {
        const at = Math.floor(rand() * (blocks.length + 1));
        blocks.splice(at, 0, rand() < 0.5 ? `[→](bit-connection:${pick(options.bitIds)})` : `[Go on](bit-connection:${pick(options.bitIds)})`);
      }
    } else if (roll < 0.65) {
      const dropped = pick(lines);
      blocks.splice(dropped.i, 1);
      // Now and then the removal is not declared: the server must refuse it with BIT_CONTENT_LOSS.
      if (rand() < 0.9) removeIds.push(dropped.m![2]);
    } else if (roll < 0.8) {
      const moved = pick(lines);
      blocks.splice(moved.i, 1);
      blocks.unshift(moved.m![0]);
    } else if (roll < 0.9) {
      const flagged = pick(lines);
      const flag = rand() < 0.5 ? 'preview=0' : 'readingTime=0';
      if (!blocks[flagged.i].includes(flag)) blocks[flagged.i] = blocks[flagged.i].replace(/\)$/, `&${flag})`);
    }
    // else: written back unchanged.
    await call(client, 'update_bit', { bit_id: bitId, bit_body: `${blocks.join('\n\n')}\n`, content_format: 'markdown', ...(removeIds.length > 0 ? { remove_node_ids: removeIds } : {}) });
  };

  const step = async (client: CallClient) => {
    const roll = rand();
    const bitId = pick(options.bitIds);
    if (roll < 0.35) {
      let sortOrder: number | undefined;
      if (rand() < 0.25) sortOrder = (await read(client, bitId))?.connections.length;
      await call(client, 'connect_bits', { source_bit_id: bitId, target_bit_id: pick(options.bitIds), ...(sortOrder !== undefined ? { sort_order: sortOrder } : {}) });
    } else if (roll < 0.55) {
      const bit = await read(client, bitId);
      const id = bit && bit.connections.length > 0 ? pick(bit.connections).connection_id : '00000000-0000-4000-8000-000000000000';
      await call(client, 'remove_connection', { connection_id: id });
    } else if (roll < 0.88) {
      await update(client, bitId);
    } else if (roll < 0.92 || !options.restore) {
      await call(client, 'archive_bit', { bit_id: bitId });
    } else {
      try {
        await options.restore(bitId);
        restores++;
      } catch (error) {
        unexpected.push(`restore: threw ${(error as Error).message}`);
      }
    }
  };

  const worker = async (client: CallClient) => {
    while (remaining > 0) {
      remaining--;
      await step(client);
    }
  };

  const started = performance.now();
  await Promise.all(options.clients.flatMap((client) => Array.from({ length: inFlight }, () => worker(client))));
  const elapsed = performance.now() - started;
  return {
    ops: options.ops,
    clients: options.clients.length,
    in_flight: options.clients.length * inFlight,
    elapsed_ms: Math.round(elapsed),
    ops_per_second: Math.round((options.ops / elapsed) * 1000),
    tools: Object.fromEntries(Object.entries(tools).map(([k, t]) => [k, { ...t, mean_ms: Math.round(t.mean_ms * 10) / 10 }])),
    restores,
    unexpected,
    internal_errors: internal,
  };
}

/** An SDK client as a CallClient: the envelope is the structured content (CONTRACT.md, "The answer envelope"). */
function asCallClient(client: Client): CallClient {
  return {
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const envelope = result.structuredContent as Envelope | undefined;
      if (!envelope) throw new Error(`${name} answered without structuredContent: ${JSON.stringify(result.content).slice(0, 300)}`);
      return envelope;
    },
  };
}

const BIN = new URL('../bin/waymark.js', import.meta.url).pathname;

export interface ProcessClients {
  clients: CallClient[];
  /** How the clients reach the store, for the report. */
  description: string;
  close(): Promise<void>;
}

/**
 * The clients of the concurrency rule: on PostgreSQL, `waymark serve` processes (each with
 * `sessionsPerProcess` Streamable HTTP sessions); on the embedded store, `waymark stdio` processes (one
 * session each, as stdio has).
 */
export async function startProcessClients(engine: Engine, env: Record<string, string>, token: string, options: { processes?: number; sessionsPerProcess?: number } = {}): Promise<ProcessClients> {
  const processes = options.processes ?? 2;
  const sdkClients: Client[] = [];
  const children: ChildProcess[] = [];
  try {
    if (engine === 'postgres') {
      const sessions = options.sessionsPerProcess ?? 2;
      const servers = await Promise.all(Array.from({ length: processes }, () => startServe(env)));
      children.push(...servers.map((s) => s.child));
      for (const server of servers) {
        for (let i = 0; i < sessions; i++) {
          const client = new Client({ name: 'concurrency', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
          sdkClients.push(client);
        }
      }
    } else {
      await Promise.all(
        Array.from({ length: processes }, async () => {
          const client = new Client({ name: 'concurrency', version: '1.0.0' });
          const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...env, WAYMARK_TOKEN: token, WAYMARK_LOG_LEVEL: 'silent' };
          await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env: childEnv, stderr: 'inherit' }));
          sdkClients.push(client);
        }),
      );
    }
  } catch (error) {
    for (const c of sdkClients) await c.close().catch(() => undefined);
    for (const child of children) child.kill('SIGTERM');
    throw error;
  }
  return {
    clients: sdkClients.map(asCallClient),
    description: engine === 'postgres' ? `${processes} waymark serve processes × ${options.sessionsPerProcess ?? 2} HTTP sessions` : `${processes} waymark stdio processes`,
    async close() {
      for (const c of sdkClients) await c.close().catch(() => undefined);
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await once(child, 'exit');
        }),
      );
    },
  };
}

/** PostgreSQL's count of deadlocks detected in the store's database (null on SQLite). */
export async function deadlockCount(store: Store): Promise<number | null> {
  if (store.dialect.engine !== 'postgres') return null;
  const result = await sql<{ deadlocks: string | number }>`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`.execute(store.db);
  return Number(result.rows[0]?.deadlocks ?? 0);
}
