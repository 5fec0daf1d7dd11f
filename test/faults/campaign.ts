/**
 * The fault test (issue 7, item 1): several clients write over Streamable HTTP to a `waymark serve`
 * child process, which is killed with SIGKILL at random moments and restarted on the same store; after
 * each restart every acknowledged write must be there, no refused write may have left a trace, the
 * store's invariants must hold, and the event log must hold each applied write's event and no other
 * (events.ts). Used by test/faults.test.ts (short) and test/faults/run.ts (long).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { capabilityName } from '../../src/config.js';
import { createServices } from '../../src/services/index.js';
import type { Store } from '../../src/store/store.js';
import { eventHash } from '../../src/services/events/chain.js';
import { chainHead } from '../../src/store/repositories/events.repo.js';
import { createTestStore, type Engine } from '../engines.js';
import { RemoteClient } from './client.js';
import { EventChecker, type EventFindings } from './events.js';
import { step } from './load.js';
import { Model, readSnapshot } from './model.js';
import { killServe, startServe, stopServe, terminateServe, type ServeProcess } from './server.js';
import { runStartupFaults, type StartupReport } from './startup.js';
import { verify, type RoundTripCache, type Verification } from './verify.js';
import { WEBHOOK_SERVER_ENV, WebhookFaultRun, type WebhookFaultOptions, type WebhookFaultReport } from './webhooks.js';
import { Random, Tally, Worker } from './worker.js';

export interface FaultOptions {
  engine: Engine;
  kills: number;
  /** SIGTERM stops under load besides the kills: the clean shutdown must keep what it acknowledged and exit. */
  termStops?: number;
  /** Kills during the first start of new stores (startup.ts), before the load. */
  startupKills?: number;
  clients?: number;
  /** How long the load runs before each kill: a random time in [minLoadMs, maxLoadMs]. */
  minLoadMs?: number;
  maxLoadMs?: number;
  seed?: number;
  /**
   * After the run, damage the store behind the server's back (a mirror row deleted, an acknowledged title
   * changed, a refused write's title stored) and report what the verifier finds: proof that it can fail.
   */
  selfCheck?: boolean;
  /** Where to write the journal of every write (one JSON object a line), if anywhere. */
  journalPath?: string;
  /** A webhook endpoint of everything, its receiver failing at random, held against the events after the run (webhooks.ts). */
  webhook?: WebhookFaultOptions;
  log?: (line: string) => void;
}

export interface FaultReport {
  engine: Engine;
  seed: number;
  clients: number;
  kills: number;
  term_stops: number;
  /** SIGTERM stops that did not end the process within 10 s (it was then killed). */
  term_stops_hung: number;
  verifications: number;
  writes: {
    acknowledged: number;
    refused: number;
    /** In flight at a kill; settled against the store after the restart. */
    unknown: number;
    unknown_found_applied: number;
    unknown_found_absent: number;
    by_tool: Record<string, Record<string, number>>;
  };
  writes_lost: number;
  refused_traces: number;
  /** Every invariant broken, the event log's included (events_missing, events_orphan and its chain and revisions). */
  invariant_violations: number;
  /** Events of the load read after the restarts, each once (issue 26). */
  events_checked: number;
  /** Acknowledged writes, and writes in flight found applied, that have no event. */
  events_missing: number;
  /** Events that no acknowledged or applied write accounts for, or that name a record not in the store. */
  events_orphan: number;
  /** Answers the load did not expect (a refusal of a valid write, a transport failure without a kill). */
  unexpected_answers: number;
  /** Lines the server logged at level error (each INTERNAL_ERROR has one). */
  server_errors: number;
  records: Record<string, number>;
  self_check?: { lost: number; traces: number; invariants: number; events_missing: number; events_orphan: number; event_invariants: number };
  startup?: StartupReport;
  webhooks?: WebhookFaultReport;
  /** The first problems found, for a failure's message. */
  problems: string[];
  duration_ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runFaultCampaign(options: FaultOptions): Promise<FaultReport> {
  const started = Date.now();
  const seed = options.seed ?? randomInt(2 ** 31);
  const clients = options.clients ?? 4;
  const minLoad = options.minLoadMs ?? 150;
  const maxLoad = options.maxLoadMs ?? 1500;
  const log = options.log ?? (() => undefined);
  const rnd = new Random(seed);
  const startup = options.startupKills ? await runStartupFaults(options.engine, options.startupKills, rnd, log) : undefined;
  const ts = await createTestStore(options.engine);
  const model = new Model();
  const tally = new Tally();
  const cache: RoundTripCache = new Map();
  const found: Verification = { unknownApplied: 0, unknownAbsent: 0, lost: [], traces: [], invariants: [] };
  const foundEvents: EventFindings = { checked: 0, missing: [], orphans: [], invariants: [] };
  let verifications = 0;
  let kills = 0;
  let termStops = 0;
  const hung: string[] = [];
  let serve: ServeProcess | null = null;
  const servers: ServeProcess[] = [];
  let webhooks: WebhookFaultRun | undefined;
  const launch = async () => {
    const started = await startServe({ ...ts.env, ...(options.webhook ? WEBHOOK_SERVER_ENV : {}) });
    servers.push(started);
    return started;
  };
  try {
    const services = createServices(ts.store);
    const { accountId, token: ownerToken } = await services.auth.init();
    const tokens: string[] = [];
    const principals = new Map<string, number>();
    for (let i = 0; i < clients; i++) {
      const issued = await services.auth.createToken({ accountId, permission: 'edit', capabilities: (['author', 'read', 'run'] as const).map(capabilityName), kind: 'agent', name: `fault client ${i}` });
      tokens.push(issued.token);
      principals.set(issued.principalId, i);
    }
    if (options.webhook) {
      const owner = ownerToken ? await services.auth.authenticate(ownerToken.token) : null;
      if (!owner) throw new Error('the owner token made by init does not authenticate');
      webhooks = await WebhookFaultRun.start(ts.store, accountId, owner, new Random(seed + 7919), options.webhook);
    }
    // The account's, the tokens' and the webhook's events are the setup's: the load's come after.
    const setupSeq = Number((await chainHead(ts.store.db, accountId))?.seq ?? 0);
    const events = new EventChecker(ts.store, accountId, principals, setupSeq);
    const tag = seed.toString(36);
    const workers = tokens.map((_, i) => new Worker(i, model, tally, new Random(seed + i + 1), tag));

    const check = async (when: string) => {
      const snapshot = await readSnapshot(ts.store, accountId);
      const pending = workers.flatMap((w) => (w.pending ? [w.pending] : []));
      const result = verify(model, snapshot, pending, cache);
      for (const w of workers) w.pending = null;
      const ev = await events.check(workers, snapshot);
      verifications++;
      found.unknownApplied += result.unknownApplied;
      found.unknownAbsent += result.unknownAbsent;
      found.lost.push(...result.lost);
      found.traces.push(...result.traces);
      found.invariants.push(...result.invariants);
      foundEvents.checked += ev.checked;
      foundEvents.missing.push(...ev.missing);
      foundEvents.orphans.push(...ev.orphans);
      foundEvents.invariants.push(...ev.invariants);
      const problems = result.lost.length + result.traces.length + result.invariants.length + ev.missing.length + ev.orphans.length + ev.invariants.length;
      log(`${options.engine} ${when}: ${snapshot.bits.size} bits, ${snapshot.connections.length} connections, ${ev.checked} new events; in flight ${pending.length} (applied ${result.unknownApplied}); problems ${problems}`);
    };

    serve = await launch();
    const schedule: Array<'kill' | 'term'> = [...Array<'kill'>(options.kills).fill('kill'), ...Array<'term'>(options.termStops ?? 0).fill('term')];
    for (let i = schedule.length - 1; i > 0; i--) {
      const j = rnd.int(i + 1);
      [schedule[i], schedule[j]] = [schedule[j], schedule[i]];
    }
    for (const how of schedule) {
      const loadStarted = Date.now();
      const url = serve.url;
      const connected = await Promise.all(tokens.map((t) => RemoteClient.connect(url, t)));
      let stopped = false;
      const phases = workers.map((w, i) => w.runPhase(connected[i], () => stopped, step));
      await sleep(minLoad + rnd.next() * (maxLoad - minLoad));
      const loadMs = Date.now() - loadStarted;
      stopped = true;
      if (how === 'kill') {
        await killServe(serve);
        kills++;
      } else {
        termStops++;
        if (!(await terminateServe(serve, 10_000))) hung.push(`SIGTERM stop ${termStops} under load: the process had not exited after 10 s`);
      }
      // Closing the clients fails the calls still waiting: the SDK would otherwise try to resume their streams.
      await Promise.all(connected.map((c) => c.close()));
      await Promise.all(phases);
      if (ts.store.dialect.engine === 'postgres') await waitForQuietPostgres(ts.store);
      await webhooks?.serverGone();
      const restartStarted = Date.now();
      serve = await launch();
      const what = how === 'kill' ? `kill ${kills}` : `SIGTERM stop ${termStops}`;
      await check(`${what} after ${loadMs} ms of load, restarted in ${Date.now() - restartStarted} ms`);
    }
    // A last quiet stop and start: the clean shutdown keeps everything too.
    await stopServe(serve);
    serve = await launch();
    await check('after a clean restart');
    // The deliverer drains what is left (its receiver now accepting all), then every server is stopped.
    const drainMs = webhooks ? await webhooks.drain() : 0;
    await stopServe(serve);
    serve = null;
    const webhookReport = webhooks ? await webhooks.report(events.acknowledgedEventIds, drainMs) : undefined;
    if (webhookReport) {
      const { problems: _p, ...counts } = webhookReport;
      log(`${options.engine} webhooks: ${JSON.stringify(counts)}`);
    }
    const records = await countRecords(ts.store, accountId);
    const serverErrors = servers.flatMap((s) => s.errors);
    const selfCheck = options.selfCheck ? await sabotage(ts.store, accountId, model, cache, { workers, principals, setupSeq }) : undefined;
    if (options.journalPath) writeFileSync(options.journalPath, tally.journal.map((e) => JSON.stringify(e)).join('\n') + '\n');
    return {
      engine: options.engine,
      seed,
      clients,
      kills,
      term_stops: termStops,
      term_stops_hung: hung.length,
      verifications,
      writes: {
        acknowledged: tally.counts.acknowledged,
        refused: tally.counts.refused,
        unknown: tally.counts.unknown,
        unknown_found_applied: found.unknownApplied,
        unknown_found_absent: found.unknownAbsent,
        by_tool: tally.byTool,
      },
      writes_lost: found.lost.length,
      refused_traces: found.traces.length,
      invariant_violations: found.invariants.length + foundEvents.missing.length + foundEvents.orphans.length + foundEvents.invariants.length,
      events_checked: foundEvents.checked,
      events_missing: foundEvents.missing.length,
      events_orphan: foundEvents.orphans.length,
      unexpected_answers: tally.surprises.length,
      server_errors: serverErrors.length,
      records,
      ...(selfCheck ? { self_check: selfCheck } : {}),
      ...(startup ? { startup } : {}),
      ...(webhookReport ? { webhooks: webhookReport } : {}),
      problems: [...(startup?.problems ?? []), ...(webhookReport?.problems ?? []), ...hung, ...found.lost, ...found.traces, ...found.invariants, ...foundEvents.missing, ...foundEvents.orphans, ...foundEvents.invariants, ...tally.surprises, ...serverErrors].slice(0, 40),
      duration_ms: Date.now() - started,
    };
  } finally {
    if (serve) await killServe(serve);
    await webhooks?.close();
    await ts.close();
  }
}

/**
 * A COMMIT the killed server had already sent may still be in PostgreSQL's hands: wait until no other
 * backend of this database is running a statement or holding a transaction open.
 */
async function waitForQuietPostgres(store: Store): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const busy = await sql<{ n: string | number }>`select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state in ('active', 'idle in transaction', 'idle in transaction (aborted)')`.execute(store.db);
    if (Number(busy.rows[0]?.n ?? 0) === 0) return;
    await sleep(50);
  }
}

interface RunEvents {
  workers: Worker[];
  principals: Map<string, number>;
  setupSeq: number;
}

async function sabotage(store: Store, accountId: string, model: Model, cache: RoundTripCache, run: RunEvents): Promise<NonNullable<FaultReport['self_check']>> {
  const connected = [...model.bits.values()].find((b) => b.connections.some((c) => c.id !== null));
  const connection = connected?.connections.find((c) => c.id !== null);
  const bit = [...model.bits.values()][0];
  if (connection?.id) await store.db.deleteFrom('connections').where('id', '=', connection.id).execute();
  // A short run under heavy load may have acknowledged no connection: a body that no longer parses breaks the
  // invariants as surely, and the verifier must report it.
  else if (bit) await store.db.updateTable('bits').set({ body: '{"not": "a Slate body"}' }).where('id', '=', bit.id).execute();
  if (bit) await store.db.updateTable('bits').set({ title: 'changed behind the server' }).where('id', '=', bit.id).execute();
  // A refused write's title planted on an acknowledged flow, or (a short run under heavy load may have acknowledged
  // no flow) on a second bit: the verifier must report it as a trace either way.
  const flow = [...model.flows.values()][0];
  const second = [...model.bits.values()][1];
  model.refusedMarkers.push('record of a refused write');
  if (flow) await store.db.updateTable('flows').set({ title: 'record of a refused write' }).where('id', '=', flow.id).execute();
  else if (second) await store.db.updateTable('bits').set({ title: 'record of a refused write' }).where('id', '=', second.id).execute();
  await sabotageEvents(store, accountId, run);
  const snapshot = await readSnapshot(store, accountId);
  const result = verify(model, snapshot, [], cache);
  // The whole log again, from the setup on.
  const events = await new EventChecker(store, accountId, run.principals, run.setupSeq).check(run.workers, snapshot);
  return {
    lost: result.lost.length,
    traces: result.traces.length,
    invariants: result.invariants.length,
    events_missing: events.missing.length,
    events_orphan: events.orphans.length,
    event_invariants: events.invariants.length,
  };
}

/**
 * The last event deleted and a forged one in its place, chained as the server would (so only the writes can tell
 * them: the chain still verifies), and an event in the middle edited (which only the chain can tell).
 */
async function sabotageEvents(store: Store, accountId: string, run: RunEvents): Promise<void> {
  const rows = await store.db.selectFrom('events').selectAll().where('account_id', '=', accountId).where('seq', '>', run.setupSeq).orderBy('seq').execute();
  const last = rows.at(-1);
  const [principal] = run.principals.keys();
  if (!last || principal === undefined) return;
  await store.db.deleteFrom('events').where('id', '=', last.id).execute();
  const { hash: _hash, ...kept } = last;
  const forged = { ...kept, id: randomUUID(), principal_id: principal, operation: 'add_bit', resource_type: 'bit', resource_id: randomUUID(), revision: 1, summary: '{}' };
  await store.db.insertInto('events').values({ ...forged, hash: eventHash(forged) }).execute();
  const middle = rows[Math.floor((rows.length - 1) / 2)];
  if (middle !== last) await store.db.updateTable('events').set({ summary: '{"edited":true}' }).where('id', '=', middle.id).execute();
}

async function countRecords(store: Store, accountId: string): Promise<Record<string, number>> {
  const count = async (table: 'bits' | 'connections' | 'flows' | 'library_references' | 'bit_reference_links' | 'trails') => {
    const row = await store.db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as('n')).where('account_id', '=', accountId).executeTakeFirst();
    return Number(row?.n ?? 0);
  };
  const archived = await store.db.selectFrom('bits').select((eb) => eb.fn.countAll<string | number>().as('n')).where('account_id', '=', accountId).where('status', '=', 'archived').executeTakeFirst();
  const answers = await store.db.selectFrom('trail_answers').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
  return {
    bits: await count('bits'),
    archived_bits: Number(archived?.n ?? 0),
    connections: await count('connections'),
    flows: await count('flows'),
    references: await count('library_references'),
    reference_links: await count('bit_reference_links'),
    trails: await count('trails'),
    answers: Number(answers?.n ?? 0),
  };
}
