/**
 * The fault test's short form (issue 7, item 1): `waymark serve` killed with SIGKILL once during the first
 * start of a new store and a few times under a mixed write load, on each engine. The long form, with at
 * least 20 kills, is `npm run test:faults`.
 */
import { describe, expect, it } from 'vitest';
import { ENGINES } from './engines.js';
import { runFaultCampaign } from './faults/campaign.js';

describe.each(ENGINES)('fault test (short) on %s', (engine) => {
  it('keeps every acknowledged write across SIGKILLs, with no trace of refused ones and the invariants intact', { timeout: 120_000 }, async () => {
    const report = await runFaultCampaign({ engine, kills: 3, startupKills: 1, clients: 3, minLoadMs: 300, maxLoadMs: 1200, selfCheck: true });
    const summary = `seed ${report.seed}: ${JSON.stringify(report.problems, null, 1)}`;
    expect(report.kills, summary).toBe(3);
    expect(report.writes.acknowledged, summary).toBeGreaterThan(0);
    expect(report.writes_lost, summary).toBe(0);
    expect(report.refused_traces, summary).toBe(0);
    expect(report.invariant_violations, summary).toBe(0);
    expect(report.unexpected_answers, summary).toBe(0);
    expect(report.server_errors, summary).toBe(0);
    // Killed during the first start of a new store: the next start comes up, and the account has its owner token.
    expect(report.startup?.restarts_failed, summary).toBe(0);
    expect(report.startup?.accounts_without_owner_token, summary).toBe(0);
    expect(report.startup?.printed_tokens_refused, summary).toBe(0);
    // The verifier itself finds damage done behind the server's back.
    expect(report.self_check?.lost, summary).toBeGreaterThan(0);
    expect(report.self_check?.traces, summary).toBeGreaterThan(0);
    expect(report.self_check?.invariants, summary).toBeGreaterThan(0);
  });
});
