/**
 * The long fault test: `npm run test:faults`. At least 20 kills on the embedded store and, when
 * WAYMARK_TEST_DATABASE_URL is set, on PostgreSQL; the report goes to bench/results/faults.json. Besides the store
 * against the acknowledged writes, each restart holds the event log against them (events.ts).
 * FAULT_KILLS, FAULT_STARTUP_KILLS, FAULT_TERM_STOPS, FAULT_CLIENTS, FAULT_SEED and FAULT_ENGINES (e.g. `postgres`) change the run; FAULT_JOURNAL_DIR keeps each engine's journal.
 * The run delivers webhooks too (webhooks.ts): an endpoint of every event whose receiver answers 500 to
 * FAULT_WEBHOOK_FAIL_RATE of its requests (default 0.3); FAULT_WEBHOOKS=0 leaves it out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINES } from '../engines.js';
import { runFaultCampaign, type FaultReport } from './campaign.js';
import { webhookViolations } from './webhooks.js';

const kills = Number(process.env.FAULT_KILLS ?? 25);
const clients = Number(process.env.FAULT_CLIENTS ?? 4);
const seed = process.env.FAULT_SEED ? Number(process.env.FAULT_SEED) : undefined;
const journalDir = process.env.FAULT_JOURNAL_DIR;
const webhook = process.env.FAULT_WEBHOOKS === '0' ? undefined : { failRate: Number(process.env.FAULT_WEBHOOK_FAIL_RATE ?? 0.3) };
const engines = process.env.FAULT_ENGINES ? ENGINES.filter((e) => process.env.FAULT_ENGINES?.split(',').includes(e)) : ENGINES;

const reports: FaultReport[] = [];
for (const engine of engines) {
  const report = await runFaultCampaign({
    engine,
    kills,
    startupKills: Number(process.env.FAULT_STARTUP_KILLS ?? 8),
    termStops: Number(process.env.FAULT_TERM_STOPS ?? 4),
    clients,
    seed,
    minLoadMs: 200,
    maxLoadMs: 2500,
    journalPath: journalDir ? join(journalDir, `faults-${engine}.ndjson`) : undefined,
    webhook,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  reports.push(report);
  const { by_tool: _byTool, ...writes } = report.writes;
  process.stdout.write(`${engine}: ${JSON.stringify({ kills: report.kills, term_stops: report.term_stops, term_stops_hung: report.term_stops_hung, ...writes, writes_lost: report.writes_lost, refused_traces: report.refused_traces, invariant_violations: report.invariant_violations, events_checked: report.events_checked, events_missing: report.events_missing, events_orphan: report.events_orphan, unexpected_answers: report.unexpected_answers, server_errors: report.server_errors, startup: report.startup && { ...report.startup, problems: undefined }, webhooks: report.webhooks && { ...report.webhooks, problems: undefined }, duration_ms: report.duration_ms })}\n`);
  for (const p of report.problems) process.stdout.write(`  ${p}\n`);
}
if (!process.env.WAYMARK_TEST_DATABASE_URL) process.stdout.write('PostgreSQL skipped: set WAYMARK_TEST_DATABASE_URL to run it too.\n');

const out = new URL('../../bench/results/', import.meta.url).pathname;
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'faults.json'),
  `${JSON.stringify({ command: 'npm run test:faults', generated: new Date().toISOString(), node: process.version, runs: reports }, null, 2)}\n`,
);
const failed = reports.filter((r) => r.writes_lost + r.refused_traces + r.invariant_violations + r.events_missing + r.events_orphan + r.unexpected_answers + r.server_errors + r.term_stops_hung + (r.startup?.problems.length ?? 0) + (r.webhooks ? webhookViolations(r.webhooks) : 0) > 0 || r.kills < kills);
process.stdout.write(failed.length === 0 ? `faults: all acknowledged writes kept with their events, no traces, invariants hold${webhook ? '; every acknowledged write\'s event delivered, in order, nothing else' : ''}\n` : `faults: FAILED on ${failed.map((r) => r.engine).join(', ')}\n`);
process.exitCode = failed.length === 0 ? 0 : 1;
