/**
 * Scale (issue 31): the reads a person or agent makes often, as a team's trails pile up from 1k to 10k and 100k
 * (bench/trail-load.ts: 50 people and 5 agents, 20 flows, mixed status, and 10 changes of each trail in the
 * account's event log: a million events at 100k trails), on the embedded store and on PostgreSQL
 * (a fresh database, dropped afterwards). Every read goes through the real HTTP app (createHttpApp, in this
 * process) over /api/v1 as the web app makes it: a person signed in by a link, an agent by its bearer token. Each
 * figure is the median server time of repeated calls (from the request's arrival to its answer handed to the
 * socket), shown beside its 1k figure; the issue's bars: within 1.5× of 1k at 100k on both engines, and under
 * 50 ms at 100k on PostgreSQL. The statements of the slowest reads at the largest size, with their plans, go to
 * bench/results/scale-plans.md.
 *
 *   npm run bench -- --only=scale               (--quick: 1k and 10k)
 *   npx tsx bench/scale.ts [--quick]            writes bench/results/scale.json and scale-plans.md
 *   BENCH_SCALE_ENGINES=sqlite,postgres         the engines; WAYMARK_BENCH_DATABASE_URL an admin URL
 *   BENCH_SCALE_SIZES=1000,10000,100000         the sizes (the first is the baseline)
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createHttpApp } from '../src/http/app.js';
import type { Actor } from '../src/services/actor.js';
import type { Services } from '../src/services/index.js';
import { inboxCounts } from '../src/store/repositories/inbox.repo.js';
import { encodeCursor } from '../src/store/repositories/paging.js';
import type { Store } from '../src/store/store.js';
import { silentLogger } from '../test/harness.js';
import { signedIn, type Browser } from '../test/web-client.js';
import { openBenchStore, type BenchStore, type EngineName } from './bodies.js';
import { plansOf, type StatementPlan } from './query-plans.js';
import { isEntry, median, RESULTS_DIR, round, runAsScript, writeResult, type BenchOptions, type BenchResult } from './result.js';
import { EVENTS_PER_TRAIL, loadTrails, makeTeam, settle, type Team } from './trail-load.js';

const RATIO_BAR = 1.5;
const POSTGRES_MS_BAR = 50;

interface Served {
  origin: string;
  /** Server time of the last request answered, in ms. */
  lastMs(): number;
  close(): Promise<void>;
}

async function serve(services: Services): Promise<Served> {
  const server = createHttpApp(services, silentLogger, { host: '127.0.0.1', port: 0 }).listen(0, '127.0.0.1');
  // Longer than any load between two sizes (100k trails and a million events took minutes): the client keeps its
  // connection as long as the server says, and a connection the server dropped meanwhile failed the next read.
  server.keepAliveTimeout = 3_600_000;
  let last = Number.NaN;
  // First among the listeners, so the time starts before the app's own synchronous work.
  server.prependListener('request', (_req, res) => {
    const started = performance.now();
    res.once('finish', () => (last = performance.now() - started));
  });
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastMs: () => last,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Read {
  name: string;
  /** The request, answered with its data. */
  request(): Promise<{ items?: unknown[]; trails?: unknown[] }>;
  /** The same read as a service call, for its statements' plans. */
  service(services: Services): Promise<unknown>;
  /** The page size asked for: the baseline's page must be full, so that every size answers as many rows. */
  limit?: number;
  /** A call into the store in this process, timed around the call (not a request). */
  direct?: boolean;
}

interface Timed {
  base: number;
  grown: number;
  grownClient: number;
  /** The median of the rounds' ratios, each of two requests made one after the other. */
  ratio: number;
}

/**
 * The median server time of each read on two stores, measured in alternating turns (the baseline's request, then
 * the grown store's, the order swapped each round), so that other work on the machine weighs on both alike.
 */
async function timePairs(base: Side, grown: Side, baseReads: Read[], grownReads: Read[], rounds: number): Promise<Timed[]> {
  const samples = baseReads.map(() => ({ base: [] as number[], grown: [] as number[], grownClient: [] as number[] }));
  const once = async (side: Side, read: Read) => {
    const t = performance.now();
    await read.request();
    const client = performance.now() - t;
    return { server: read.direct ? client : side.web.lastMs(), client };
  };
  for (let round = -3; round < rounds; round++) {
    for (const [i, read] of baseReads.entries()) {
      const other = grownReads[i] as Read;
      let b: { server: number };
      let g: { server: number; client: number };
      if (round % 2 === 0) {
        b = await once(base, read);
        g = await once(grown, other);
      } else {
        g = await once(grown, other);
        b = await once(base, read);
      }
      if (round < 0) continue; // warming up
      samples[i]?.base.push(b.server);
      samples[i]?.grown.push(g.server);
      samples[i]?.grownClient.push(g.client);
    }
  }
  return samples.map((s) => ({ base: median(s.base), grown: median(s.grown), grownClient: median(s.grownClient), ratio: median(s.grown.map((g, i) => g / (s.base[i] as number))) }));
}

interface Side {
  bench: BenchStore;
  team: Team;
  web: Served;
  browser: Browser;
  person: Actor;
  agent: Actor;
  agentToken: string;
  loaded: number;
}

/** A fresh store with its team, served, its person signed in. */
async function openSide(engine: EngineName): Promise<Side> {
  const bench = await openBenchStore(engine);
  const team = await makeTeam(bench.store);
  const services = team.owner.services;
  const web = await serve(services);
  const person = team.people[0];
  const agent = team.agents[0];
  if (!person || !agent) throw new Error('no team');
  const actor = async (token: string) => {
    const authenticated = await services.auth.authenticate(token);
    if (!authenticated) throw new Error('a member does not authenticate');
    const { expiresAt: _expiresAt, ...rest } = authenticated;
    return rest;
  };
  return {
    bench,
    team,
    web,
    browser: await signedIn(services, web.origin, person.principalId),
    person: await actor(person.token),
    agent: await actor(agent.token),
    agentToken: agent.token,
    loaded: await trailCount(bench.store),
  };
}

async function trailCount(store: Store): Promise<number> {
  return Number((await store.db.selectFrom('trails').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}

/** Loads the side up to `size` trails; the seconds it took. */
async function grow(side: Side, size: number): Promise<number> {
  const started = performance.now();
  await loadTrails(side.bench.store, side.team, side.loaded, size);
  side.loaded = Math.max(side.loaded, size);
  await settle(side.bench.store);
  return (performance.now() - started) / 1000;
}

/** The reads at the side's present size; cursors are taken from the store as it is now. */
async function readsOf(side: Side): Promise<Read[]> {
  const { person, agent } = side;
  const me = person.principalId;
  const flow = side.team.flows[0]?.flowId as string;
  const store = side.bench.store;
  type Input = { limit: number; flow_id?: string; reason?: 'transferred'; principal_id?: string; cursor?: string; resource_type?: 'trail'; resource_id?: string };
  type Op = 'inbox' | 'trails' | 'history';
  const request = async (op: Op, who: Actor, input: Input) => {
    const path = `/api/v1/${op}?${new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
    // The person through the web app's session, the agent with its bearer token.
    const res = who === person ? await side.browser.fetch(path) : await fetch(`${side.web.origin}${path}`, { headers: { authorization: `Bearer ${side.agentToken}` } });
    const body = (await res.json()) as { success: boolean; data?: { items?: unknown[]; trails?: unknown[]; events?: unknown[]; next_cursor?: string | null } };
    if (!body.success || !body.data) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
    return { ...body.data, items: body.data.items ?? body.data.events };
  };
  const read = (name: string, op: Op, who: Actor, input: Input): Read => ({
    name,
    limit: input.limit,
    request: () => request(op, who, input),
    service: (s) => (op === 'inbox' ? s.inbox.list(who, input) : op === 'history' ? s.history.list(who, input) : s.trails.list(who, input)),
  });
  const inboxNext = (await request('inbox', person, { limit: 20 })).next_cursor ?? '';
  const mineNext = (await request('trails', person, { limit: 25, principal_id: me })).next_cursor ?? '';
  const middle = await store.db
    .selectFrom('trails')
    .select(['updated_at', 'id'])
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .offset(Math.floor((await trailCount(store)) / 2))
    .limit(1)
    .executeTakeFirstOrThrow();
  const deep = encodeCursor(middle);
  // A trail's history: the trail of the first page of the list (every loaded trail has EVENTS_PER_TRAIL changes).
  const someTrail = (await store.db.selectFrom('events').select('resource_id').where('resource_type', '=', 'trail').orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow()).resource_id;
  const activityNext = (await request('history', person, { limit: 50 })).next_cursor ?? '';
  const head = Number((await store.db.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirstOrThrow()).seq);
  // The Activity page half way down its pages, as its cursor says it (history.service.ts encodeCursor).
  const activityDeep = Buffer.from(`h${Math.floor(head / 2)}`).toString('base64url');
  const inboxWho = { accountId: person.accountId, scopeId: person.scopeId, principalId: me, isPerson: true };
  return [
    read('inbox, first page', 'inbox', person, { limit: 20 }),
    read('inbox, next page', 'inbox', person, { limit: 20, cursor: inboxNext }),
    {
      name: "the inbox's counts (the store's statement, in this process)",
      direct: true,
      request: async () => ({ items: [await inboxCounts(store.db, inboxWho, {})] }),
      service: (s) => s.inbox.list(person, { limit: 1 }),
    },
    read('inbox of one flow', 'inbox', person, { limit: 5, flow_id: flow }),
    read('inbox, handed over only', 'inbox', person, { limit: 20, reason: 'transferred' }),
    read("an agent's inbox", 'inbox', agent, { limit: 5 }),
    read('my trails (list_trails by principal)', 'trails', person, { limit: 25, principal_id: me }),
    read('my trails, next page', 'trails', person, { limit: 25, principal_id: me, cursor: mineNext }),
    read('list_trails, first page', 'trails', person, { limit: 50 }),
    read('list_trails of one flow', 'trails', person, { limit: 20, flow_id: flow }),
    read('list_trails, a page half way down', 'trails', person, { limit: 50, cursor: deep }),
    read("a trail's history (list_history by resource)", 'history', person, { limit: 10, resource_type: 'trail', resource_id: someTrail }),
    read('Activity (the account history), first page', 'history', person, { limit: 50 }),
    read('Activity, next page', 'history', person, { limit: 50, cursor: activityNext }),
    read('Activity, a page half way down', 'history', person, { limit: 50, cursor: activityDeep }),
    read("Activity of one person (list_history by principal)", 'history', person, { limit: 20, principal_id: me }),
  ];
}

const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

interface EngineRun {
  engine: EngineName;
  /** By read, then by size: the grown store's time and the baseline's measured beside it. */
  timings: Map<string, Map<number, Timed>>;
  loadSeconds: Map<number, number>;
  plans: Array<{ read: string; serverMs: number; statements: StatementPlan[] }>;
}

/**
 * A baseline store of the first size and a store grown to each size in turn, each read timed on both in the same
 * turns: the ratio of a size to the baseline is measured in one window of time.
 */
async function benchEngine(engine: EngineName, sizes: number[], rounds: number): Promise<EngineRun> {
  const run: EngineRun = { engine, timings: new Map(), loadSeconds: new Map(), plans: [] };
  const sides: Side[] = [];
  try {
    const base = await openSide(engine);
    sides.push(base);
    const grown = await openSide(engine);
    sides.push(grown);
    await grow(base, sizes[0] as number);
    const baseReads = await readsOf(base);
    for (const read of baseReads.filter((r) => r.limit !== undefined)) {
      const data = await read.request();
      const rows = (data.items ?? data.trails ?? []).length;
      if (rows !== read.limit) throw new Error(`${read.name}: the baseline's page holds ${rows} rows, not ${read.limit}: its ratios would compare less work with more`);
    }
    let reads: Read[] = [];
    for (const size of sizes) {
      run.loadSeconds.set(size, await grow(grown, size));
      reads = await readsOf(grown);
      const timed = await timePairs(base, grown, baseReads, reads, rounds);
      for (const [i, read] of reads.entries()) {
        const bySize = run.timings.get(read.name) ?? new Map();
        bySize.set(size, timed[i] as Timed);
        run.timings.set(read.name, bySize);
      }
      console.log(`[scale] ${engine} ${label(size)}: loaded in ${round(run.loadSeconds.get(size) ?? 0)} s; ${reads.map((r, i) => `${r.name} ${round(timed[i]?.grown ?? 0)} ms (${round(timed[i]?.base ?? 0)})`).join('; ')}`);
    }
    const largest = sizes[sizes.length - 1] as number;
    const at = (read: Read) => run.timings.get(read.name)?.get(largest)?.grown ?? 0;
    for (const read of [...reads].sort((a, b) => at(b) - at(a)).slice(0, 3)) {
      run.plans.push({ read: read.name, serverMs: at(read), statements: await plansOf(grown.bench.store, read.service) });
    }
  } finally {
    for (const side of sides) {
      await side.web.close();
      await side.bench.dispose();
    }
  }
  return run;
}

function plansMarkdown(runs: EngineRun[], largest: number): string {
  const lines = ['# Query plans of the slowest reads (bench/scale.ts)', '', `At ${label(largest)} trails; each statement as the service ran it, its own median time over 5 runs, and its plan. Reproduce with \`npm run bench -- --only=scale\`.`, ''];
  for (const run of runs) {
    for (const plan of run.plans) {
      lines.push(`## ${run.engine}: ${plan.read} (${round(plan.serverMs)} ms server time)`, '');
      for (const statement of plan.statements) {
        lines.push(`${round(statement.ms)} ms, parameters ${JSON.stringify(statement.parameters)}`, '', '```sql', statement.sql, '```', '', '```', statement.plan, '```', '');
      }
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  // A bench calls back to back from one token: the request quotas (README, "Fair share") would refuse it.
  process.env.WAYMARK_QUOTA_REQUESTS_PER_TOKEN = '0';
  process.env.WAYMARK_QUOTA_REQUESTS_PER_ACCOUNT = '0';
  const quick = options.quick === true;
  const sizes = (process.env.BENCH_SCALE_SIZES ?? (quick ? '1000,10000' : '1000,10000,100000')).split(',').map(Number);
  const engines = (process.env.BENCH_SCALE_ENGINES ?? 'sqlite,postgres').split(',') as EngineName[];
  const rounds = quick ? 15 : 40;
  const runs: EngineRun[] = [];
  for (const engine of engines) runs.push(await benchEngine(engine, sizes, rounds));
  const base = sizes[0] as number;
  const largest = sizes[sizes.length - 1] as number;
  const rows: BenchResult['rows'] = [];
  const bars: BenchResult['bars'] = [];
  for (const run of runs) {
    for (const [read, bySize] of run.timings) {
      const row: BenchResult['rows'][number] = { engine: run.engine, read, [`${label(base)} ms`]: round(bySize.get(largest)?.base ?? Number.NaN) };
      for (const size of sizes.slice(1)) {
        const timed = bySize.get(size);
        row[`${label(size)} ms`] = round(timed?.grown ?? Number.NaN);
        row[`${label(size)} × ${label(base)}`] = round(timed?.ratio ?? Number.NaN);
      }
      row[`client ms at ${label(largest)}`] = round(bySize.get(largest)?.grownClient ?? Number.NaN);
      rows.push(row);
      const ratio = bySize.get(largest)?.ratio ?? Number.NaN;
      bars.push({ name: `${run.engine}: ${read}, server time at ${label(largest)} against ${label(base)} trails`, value: round(ratio), bar: `≤ ${RATIO_BAR}×`, pass: ratio <= RATIO_BAR });
      if (run.engine === 'postgres') {
        const ms = bySize.get(largest)?.grown ?? Number.NaN;
        bars.push({ name: `postgres: ${read}, server time at ${label(largest)} trails`, value: round(ms), bar: `≤ ${POSTGRES_MS_BAR} ms`, pass: ms <= POSTGRES_MS_BAR });
      }
    }
  }
  writeFileSync(`${RESULTS_DIR}scale-plans.md`, plansMarkdown(runs, largest));
  return {
    name: 'scale',
    rows,
    bars,
    notes: [
      `Server time, the median of ${rounds} calls after 3 unmeasured, from the request's arrival at the HTTP app (in this process) to its answer handed to the socket; the client's time around it is in the last column. Each size's ratio is against a ${label(base)} store of its own, timed in the same rounds (its request and the grown store's one after the other, the order swapped each round), the median of the rounds' ratios, so other work on the machine weighs on both; the ${label(base)} column is that baseline beside the largest size. Every page is full at ${label(base)} (the flow's and the agent's inbox ask for 5 rows, my trails for 25), so each size answers as many rows. The person is one of 50 and starts about 1.4% of the trails; the agent one of 5.`,
      `Trails loaded in bulk (bench/trail-load.ts) with ${EVENTS_PER_TRAIL} events each in the account's history (${label(largest * EVENTS_PER_TRAIL)} at ${label(largest)} trails), then the planner's statistics refreshed as a running server would (VACUUM ANALYZE on PostgreSQL, the store's PRAGMA optimize on SQLite). Loading took ${runs.map((r) => `${r.engine} ${sizes.map((s) => `${label(s)} ${round(r.loadSeconds.get(s) ?? 0)} s`).join(', ')}`).join('; ')}.`,
      'Plans of the three slowest reads at the largest size per engine: bench/results/scale-plans.md.',
      ...(quick ? ['Quick run: 1k and 10k trails only.'] : []),
    ],
  };
}

if (isEntry(import.meta.url)) {
  runAsScript(async (options) => {
    const result = await run(options);
    writeResult(result);
    return result;
  });
}
