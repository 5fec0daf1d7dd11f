/**
 * connect_bits throughput (issue 4, "Done when"): calls over the MCP client (the real SDK client over the
 * in-memory transport, token auth on every call, as test/harness.ts) against the same transaction done
 * directly on the store in the same run (lock the source, count its connections, insert the row, write the
 * body JSON back: the store's own limit), as a ratio, on SQLite and on PostgreSQL. The two are measured in
 * alternating rounds, so that a busy machine slows both alike. Then the long form of the concurrency test
 * (test/concurrency.ts): two server processes per engine racing connect / remove / update / archive calls,
 * with the graph invariant checked afterwards.
 *
 *   npx tsx bench/connect.ts [--quick]       (or through the bench runner: run())
 *   WAYMARK_BENCH_DATABASE_URL=postgres://…  an admin URL; default postgres://postgres@127.0.0.1:5432/test
 *   BENCH_CONNECT_ROUNDS=12, BENCH_CONNECT_ENGINES=sqlite,postgres, WAYMARK_CONCURRENCY_OPS=4000 to change it.
 * A fresh database (or directory) is made for each engine and dropped afterwards. Bar: MCP ≥ 0.5× direct.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendConnection, type SlateBody } from '../src/content/index.js';
import { capabilityName } from '../src/config.js';
import { nextModified } from '../src/services/clock.js';
import { createServices, type Services } from '../src/services/index.js';
import { updateBit } from '../src/store/repositories/bits.repo.js';
import { lockBitForWrite } from '../src/store/repositories/bits.repo.js';
import { countOutgoing } from '../src/store/repositories/connections.repo.js';
import type { Store } from '../src/store/store.js';
import { deadlockCount, runConnectionWorkload, startProcessClients, type WorkloadReport } from '../test/concurrency.js';
import { createTestStore, type Engine, type TestStore } from '../test/engines.js';
import { connectClient, type ToolClient } from '../test/harness.js';
import { graphViolations } from '../test/invariants.js';
import { formatResult, isEntry, median, RESULTS_DIR, round, type BenchResult } from './result.js';

const BAR = 0.5;
/** Connections per source bit in a round: the most a bit may have, so each round starts on fresh sources. */
const PER_SOURCE = 20;

interface Options {
  quick?: boolean;
}

async function openEngine(engine: Engine): Promise<TestStore> {
  // test/engines.ts makes (and drops) a fresh database under this admin URL.
  if (engine === 'postgres') process.env.WAYMARK_TEST_DATABASE_URL ||= process.env.WAYMARK_BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  return createTestStore(engine);
}

async function sourcesAndTargets(services: Services, actor: Parameters<Services['bits']['add']>[0], sources: number) {
  const make = async (title: string) => (await services.bits.add(actor, { bit_title: title, bit_body: `${title}: check the invoice, then continue.` })).bit_id;
  const targets: string[] = [];
  for (let i = 0; i < 5; i++) targets.push(await make(`Target ${i}`));
  const from: string[] = [];
  for (let i = 0; i < sources; i++) from.push(await make(`Source ${i}`));
  return { targets, sources: from };
}

/** connect_bits over MCP, one call after the other. */
async function mcpRound(client: ToolClient, sources: string[], targets: string[]): Promise<number> {
  const started = performance.now();
  for (const source of sources) {
    for (let i = 0; i < PER_SOURCE; i++) await client.ok('connect_bits', { source_bit_id: source, target_bit_id: targets[i % targets.length] });
  }
  return performance.now() - started;
}

/** The same write as one store transaction: lock the source, count, insert the row, write the body back. */
async function directRound(store: Store, accountId: string, sources: string[], targets: string[]): Promise<number> {
  const started = performance.now();
  for (const source of sources) {
    for (let i = 0; i < PER_SOURCE; i++) {
      await store.transaction(async (tx) => {
        const bit = await lockBitForWrite(tx, store.dialect, source);
        if (!bit) throw new Error('source missing');
        const count = await countOutgoing(tx, source);
        const id = randomUUID();
        const target = targets[i % targets.length] as string;
        await tx.insertInto('connections').values({ id, account_id: accountId, source_bit_id: source, target_bit_id: target, sort_order: count, created_at: new Date().toISOString() }).execute();
        const body = store.dialect.parseJson<SlateBody>(bit.body);
        appendConnection(body, { id, target_bit_id: target });
        await updateBit(tx, source, { body: store.dialect.json(body), updated_at: nextModified(bit.updated_at) });
      });
    }
  }
  return performance.now() - started;
}

async function throughput(engine: Engine, rounds: number, sourcesPerRound: number) {
  const ts = await openEngine(engine);
  try {
    const services = createServices(ts.store);
    const accountId = await services.auth.createAccount('bench');
    const issued = await services.auth.createToken({ accountId, permission: 'edit', capabilities: [capabilityName('author'), capabilityName('read')] });
    const actor = await services.auth.authenticate(issued.token);
    if (!actor) throw new Error('token does not authenticate');
    const client = await connectClient(services, issued.token);
    const { targets, sources } = await sourcesAndTargets(services, actor, (rounds + 1) * 2 * sourcesPerRound);
    const take = (() => {
      let next = 0;
      return () => sources.slice(next, (next += sourcesPerRound));
    })();
    // Warm-up round for both (JIT, statement caches, pool connections), not counted.
    await mcpRound(client, take(), targets);
    await directRound(ts.store, accountId, take(), targets);
    const mcp: number[] = [];
    const direct: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so neither always follows the other's writes (checkpoints, vacuum).
      if (r % 2 === 0) {
        mcp.push(await mcpRound(client, take(), targets));
        direct.push(await directRound(ts.store, accountId, take(), targets));
      } else {
        direct.push(await directRound(ts.store, accountId, take(), targets));
        mcp.push(await mcpRound(client, take(), targets));
      }
    }
    await client.close();
    const perRound = sourcesPerRound * PER_SOURCE;
    const total = (ms: number[]) => ms.reduce((a, b) => a + b, 0);
    const problems = await graphViolations(ts.store);
    if (problems.length > 0) throw new Error(`graph invariant broken after the throughput run: ${problems[0]}`);
    return {
      connects_per_round: perRound,
      rounds,
      mcp_per_second: (perRound * rounds * 1000) / total(mcp),
      direct_per_second: (perRound * rounds * 1000) / total(direct),
      ratio_overall: total(direct) / total(mcp),
      ratio_median_round: median(mcp.map((m, i) => (direct[i] as number) / m)),
      mcp_ms_per_call: total(mcp) / (perRound * rounds),
      direct_ms_per_call: total(direct) / (perRound * rounds),
    };
  } finally {
    await ts.close();
  }
}

async function longConcurrency(engine: Engine, ops: number): Promise<WorkloadReport & { deadlocks: number | null; invariant_violations: string[]; clients_are: string }> {
  const ts = await openEngine(engine);
  try {
    const services = createServices(ts.store);
    const issued = (await services.auth.init()).token;
    if (!issued) throw new Error('init made no token');
    const actor = await services.auth.authenticate(issued.token);
    if (!actor) throw new Error('token does not authenticate');
    const bitIds: string[] = [];
    for (let i = 0; i < 8; i++) bitIds.push((await services.bits.add(actor, { bit_title: `Bit ${i}`, bit_body: `Step ${i}` })).bit_id);
    const processes = await startProcessClients(engine, ts.env, issued.token);
    let report: WorkloadReport;
    try {
      report = await runConnectionWorkload({
        clients: processes.clients,
        bitIds,
        ops,
        concurrencyPerClient: engine === 'postgres' ? 2 : 3,
        seed: 11,
        restore: async (bitId) => {
          await services.bitRestore.restore(actor, { bit_id: bitId });
        },
      });
    } finally {
      await processes.close();
    }
    return { ...report, deadlocks: await deadlockCount(ts.store), invariant_violations: await graphViolations(ts.store), clients_are: processes.description };
  } finally {
    await ts.close();
  }
}

async function measure(options: Options): Promise<{ result: BenchResult; details: Record<string, unknown> }> {
  const engines = (process.env.BENCH_CONNECT_ENGINES ?? 'sqlite,postgres').split(',').filter(Boolean) as Engine[];
  const rounds = Number(process.env.BENCH_CONNECT_ROUNDS ?? (options.quick ? 4 : 12));
  const ops = Number(process.env.WAYMARK_CONCURRENCY_OPS ?? (options.quick ? 600 : 4000));
  const result: BenchResult = { name: 'connect', rows: [], bars: [], notes: [] };
  const details: Record<string, unknown> = {};
  for (const engine of engines) {
    const t = await throughput(engine, rounds, 2);
    details[`${engine}_throughput`] = t;
    result.rows.push({
      engine,
      what: 'connect_bits, sequential',
      mcp_per_s: round(t.mcp_per_second),
      direct_per_s: round(t.direct_per_second),
      'mcp/direct': round(t.ratio_overall),
      'median round ratio': round(t.ratio_median_round),
      calls: t.connects_per_round * t.rounds * 2,
    });
    result.bars.push({ name: `${engine}: connect_bits over MCP vs direct SQL (throughput ratio)`, value: round(t.ratio_overall), bar: `≥ ${BAR}`, pass: t.ratio_overall >= BAR });
  }
  for (const engine of engines) {
    const c = await longConcurrency(engine, ops);
    details[`${engine}_concurrency`] = c;
    const ok = Object.values(c.tools).reduce((n, t) => n + t.ok, 0);
    const faults = c.invariant_violations.length + c.internal_errors + c.unexpected.length;
    result.rows.push({ engine, what: `concurrency, ${c.clients_are}, ${c.in_flight} in flight`, ops: c.ops, 'ops/s': c.ops_per_second, ok_calls: ok, internal_errors: c.internal_errors, deadlocks: c.deadlocks ?? 'n/a', violations: c.invariant_violations.length });
    result.bars.push({ name: `${engine}: concurrency run keeps the graph invariant, no INTERNAL_ERROR or unexplained refusal`, value: faults, bar: '= 0', pass: faults === 0 });
  }
  result.notes?.push(
    'direct = one store transaction per connection: lock the source (FOR NO KEY UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite), count its rows, insert the row, write the body JSON back',
    'connect_bits runs as many statements in its transaction (lock the source, read the target FOR KEY SHARE, insert the row at the row count, write the body); MCP adds the token lookup, the SDK round trip and the schema checks',
    'both sides run in alternating rounds of the same size on the same (shared) machine',
  );
  // The summary as every bench writes it, with the per-tool tallies of the concurrency runs beside it.
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'connect.json'), `${JSON.stringify({ ...result, details, when: new Date().toISOString() }, null, 2)}\n`);
  return { result, details };
}

export async function run(options: Options = {}): Promise<Record<string, unknown>> {
  const { result, details } = await measure(options);
  return { ...result, details };
}

if (isEntry(import.meta.url)) {
  measure({ quick: process.argv.includes('--quick') }).then(
    ({ result }) => {
      console.log(formatResult(result));
      console.log('written bench/results/connect.json');
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
