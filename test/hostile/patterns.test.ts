/**
 * Hostile tenant, finding 2 of issue 16: a text-area pattern that backtracks catastrophically (`(a+)+`) and an
 * answer made to trigger it ('a'×n + 'b'). The pattern runs on RE2, so the answer comes back at once and the
 * server keeps answering /healthz; an answer over the text limit is refused before any pattern runs; a stored
 * pattern RE2 cannot run (written before patterns were checked) is ANSWER_INVALID, not a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits/index.js';
import { ENGINES } from '../engines.js';
import { callTool, HEALTH_BOUND_MS, MEMORY_FACTOR, ok, startHostileServer, underAttack, type HostileServer } from './harness.js';

/** Resident memory moves by this much with no attack at all (GC, JIT): small requests are held to it. */
const MEMORY_NOISE = 64 * 1024 * 1024;

describe.each(ENGINES)('catastrophic patterns on %s', { timeout: 180_000 }, (engine) => {
  let server: HostileServer;
  let trailId: string;
  let elementId: string;

  /** A bit whose one text-area has `pattern`, a flow on it, and a running trail: the trail and element ids. */
  async function trailOn(pattern: string, rewrite?: string): Promise<{ trailId: string; elementId: string }> {
    const bit = await ok(server, 'add_bit', {
      bit_title: 'Pattern',
      bit_body: '[text-area: Code](waymark-node:code)',
      elements: [{ key: 'code', type: 'text-area', props: { validationPattern: pattern } }],
    });
    const bitId = String(bit.bit_id);
    if (rewrite !== undefined) {
      // A pattern stored before RE2 checked them: written into the stored body, past the tools.
      const store = server.services.store;
      const row = await store.db.selectFrom('bits').select('body').where('id', '=', bitId).executeTakeFirstOrThrow();
      const body = JSON.stringify(store.dialect.parseJson(row.body)).replace(JSON.stringify(pattern), JSON.stringify(rewrite));
      await store.db.updateTable('bits').set({ body: store.dialect.json(JSON.parse(body)) }).where('id', '=', bitId).execute();
    }
    const flow = await ok(server, 'create_flow', { flow_title: 'Pattern flow', start_bit_id: bitId });
    const trail = await ok(server, 'start_trail', { flow_id: flow.flow_id });
    const step = trail.current_step as { elements: Array<{ element_id: string }> };
    return { trailId: String(trail.trail_id), elementId: step.elements[0].element_id };
  }

  const submit = (value: string, ids = { trailId, elementId }) =>
    callTool(server, 'submit_step_data', { trail_id: ids.trailId, data: [{ element_id: ids.elementId, element_type: 'TextArea', value: { value } }] });

  beforeAll(async () => {
    server = await startHostileServer(engine);
    ({ trailId, elementId } = await trailOn('(a+)+'));
  });
  afterAll(async () => server?.close());

  it.each([
    ['a×40 + b (hours of backtracking)', 40],
    ['a×(text limit − 1) + b', LIMITS.textAnswerLength - 1],
  ])('%s: ANSWER_INVALID at once, /healthz within the bound', async (_name, count) => {
    const value = `${'a'.repeat(count)}b`;
    const m = await underAttack(server, () => submit(value));
    expect(m.result.envelope?.error).toMatchObject({ code: 'ANSWER_INVALID', details: { issues: [{ path: 'data[0].value.value', message: 'must match the pattern (a+)+' }] } });
    expect(m.result.bytes).toBeLessThan(4096);
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(Math.max(MEMORY_FACTOR * value.length, MEMORY_NOISE));
  });

  it('an answer over the text limit is refused by its length, before the pattern', async () => {
    // Under the byte bound of one answer (LIMITS.answerValueBytes, a VALIDATION_ERROR before any element rule
    // runs), far over the text limit: the element's own length rule answers, and the pattern never runs.
    const value = 'a'.repeat(LIMITS.answerValueBytes - 1024);
    const m = await underAttack(server, () => submit(value));
    expect(m.result.envelope?.error).toMatchObject({
      code: 'ANSWER_INVALID',
      details: { issues: [{ message: `must be at most ${LIMITS.textAnswerLength} characters (got ${value.length})` }] },
    });
    expect(m.result.bytes).toBeLessThan(4096);
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(Math.max(MEMORY_FACTOR * value.length, MEMORY_NOISE));
  });

  it('a matching answer is still recorded', async () => {
    const answer = await submit('a'.repeat(LIMITS.textAnswerLength));
    expect(answer.envelope?.success).toBe(true);
  });

  it('a pattern RE2 cannot run is refused when written, and ANSWER_INVALID (not a crash) when already stored', async () => {
    const written = await callTool(server, 'add_bit', {
      bit_title: 'Lookahead',
      bit_body: '[text-area: Code](waymark-node:code)',
      elements: [{ key: 'code', type: 'text-area', props: { validationPattern: '(?=a)(a+)+$' } }],
    });
    expect(written.envelope?.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: expect.stringMatching(/validationPattern$/), message: expect.stringMatching(/^is not supported: patterns run on RE2/) }] } });

    const stored = await trailOn('(a+)+', '(?=a)(a+)+$');
    const m = await underAttack(server, () => submit(`${'a'.repeat(40)}b`, stored));
    expect(m.result.envelope?.error).toMatchObject({
      code: 'ANSWER_INVALID',
      details: { issues: [{ message: expect.stringMatching(/^cannot be checked: the element's validationPattern is not supported/) }] },
    });
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
  });
});
