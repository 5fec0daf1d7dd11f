/**
 * Trails kept bounded and moved once (issue 16, findings 1, 7 and 10): expected_step_id, concurrent
 * advances, the step limit, snapshots shared around a loop, and the size bounds of context and answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { p, textArea } from '../../../test/trail-fixtures.js';
import { LIMITS } from '../../limits/index.js';
import * as repo from '../../store/repositories/trails.repo.js';
import type { TrailView } from '../../services/trails/shapes.js';

type Trail = TrailView;

const answer = (element_id: string, inner: unknown) => ({ element_id, element_type: 'TextArea', value: { value: inner } });

describe.each(ENGINES)('trail bounds on %s', (engine) => {
  let h: Harness;
  const bit: Record<string, string> = {};
  /** The ping step's text area. */
  let notes: string;
  let cycleFlow: string;
  let lineFlow: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    // A loop of two bits (ping ⇄ pong), the notes of each free in length; and a line one → two → three.
    const ping = await addTestBit(h, { title: 'Ping', blocks: [p('ping body'), textArea('notes')] });
    bit.ping = ping.bit_id;
    notes = ping.ids.notes;
    bit.pong = (await addTestBit(h, { title: 'Pong', blocks: [p('pong body')] })).bit_id;
    await connectTestBits(h, bit.ping, bit.pong);
    await connectTestBits(h, bit.pong, bit.ping);
    bit.one = (await addTestBit(h, { title: 'One' })).bit_id;
    bit.two = (await addTestBit(h, { title: 'Two' })).bit_id;
    bit.three = (await addTestBit(h, { title: 'Three' })).bit_id;
    await connectTestBits(h, bit.one, bit.two);
    await connectTestBits(h, bit.two, bit.three);
    cycleFlow = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Loop', start_bit_id: bit.ping })).flow_id;
    lineFlow = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Line', start_bit_id: bit.one })).flow_id;
  });
  afterAll(async () => h.close());

  const start = (flow_id: string, extra: Record<string, unknown> = {}) => h.owner.client.ok<Trail>('start_trail', { flow_id, ...extra });

  it('advance_trail with expected_step_id: the current step advances; another is VALIDATION_ERROR with details.current_step, nothing moved', async () => {
    const trail = await start(lineFlow);
    const first = trail.current_step!.step_id;
    const moved = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id, expected_step_id: first });
    expect(moved.current_step?.bit_id).toBe(bit.two);
    const retry = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id, expected_step_id: first });
    expect(retry.code).toBe('VALIDATION_ERROR');
    expect(retry.details).toMatchObject({
      issues: [{ path: 'expected_step_id', message: 'is not the current step' }],
      current_step: { step_id: moved.current_step!.step_id, seq: 2, bit_id: bit.two, bit_title: 'Two' },
    });
    const after = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(after.current_step?.bit_id).toBe(bit.two);
    expect(after.history.map((s) => s.bit_id)).toEqual([bit.one, bit.two]);
  });

  it('two concurrent advances of the same step: one moves, the other is refused, no step is skipped', async () => {
    const trail = await start(lineFlow);
    const expected_step_id = trail.current_step!.step_id;
    const advance = () =>
      h.owner.client.ok('advance_trail', { trail_id: trail.trail_id, expected_step_id }).then(
        () => 'ok',
        (e: Error) => (/"code":"VALIDATION_ERROR".*"current_step"/.test(e.message) ? 'VALIDATION_ERROR' : e.message),
      );
    const results = await Promise.all([advance(), advance()]);
    expect(results.sort()).toEqual(['VALIDATION_ERROR', 'ok']);
    const after = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(after.history.map((s) => s.bit_id)).toEqual([bit.one, bit.two]);
  });

  it('concurrent advances without expected_step_id never skip a step: each means the step current as it arrived (10 rounds of 2 and of 3)', async () => {
    for (const callers of [2, 3]) {
      for (let round = 0; round < 10; round++) {
        const trail = await start(lineFlow);
        const advance = () =>
          h.owner.client.call<Trail>('advance_trail', { trail_id: trail.trail_id }).then((e) => (e.success ? 'ok' : `${e.error?.code}:${e.error?.details?.current_step ? 'current_step' : ''}`));
        const results = await Promise.all(Array.from({ length: callers }, advance));
        expect(results.sort()).toEqual(['ok', ...Array<string>(callers - 1).fill('VALIDATION_ERROR:current_step')].sort());
        const after = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
        expect(after.history.map((s) => s.bit_id)).toEqual([bit.one, bit.two]);
      }
    }
    // One after another, each call sees the step the last one entered and moves on from it.
    const trail = await start(lineFlow);
    await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    const last = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(last.history.map((s) => s.bit_id)).toEqual([bit.one, bit.two, bit.three]);
  });

  it('the move is conditional on the step it leaves: a stale step moves nothing', async () => {
    const trail = await start(lineFlow);
    const first = trail.current_step!.step_id;
    await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    const moved = await h.store.store.transaction(async (tx) => {
      const row = await repo.lockTrail(tx, h.store.store.dialect, trail.trail_id, { accountId: h.accountId, scopeId: null });
      return repo.changeTrail(tx, row!, { status: 'completed', current_step_id: null, needs_person: 0 }, h.owner.principalId, first);
    });
    expect(moved).toBe(false);
    expect((await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).status).toBe('running');
  });

  it(`a trail enters at most ${LIMITS.stepsPerTrail} steps: the next advance is VALIDATION_ERROR`, async () => {
    const trail = await start(cycleFlow);
    // Seen as if the trail had gone round the loop that many times: the current step is the last one allowed.
    await h.store.store.db.updateTable('trail_steps').set({ seq: LIMITS.stepsPerTrail }).where('id', '=', trail.current_step!.step_id).execute();
    const refused = await h.owner.client.fail('advance_trail', { trail_id: trail.trail_id });
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.details).toMatchObject({ limit: 'stepsPerTrail', max: LIMITS.stepsPerTrail });
    expect((await h.owner.client.ok('cancel_trail', { trail_id: trail.trail_id })).status).toBe('cancelled');
  });

  it('around a loop each unchanged bit is stored once; the history names every step, the current step shows its bit', async () => {
    const trail = await start(cycleFlow);
    for (let i = 0; i < 5; i++) await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    const view = await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id });
    expect(view.history.map((s) => s.bit_title)).toEqual(['Ping', 'Pong', 'Ping', 'Pong', 'Ping', 'Pong']);
    expect(view.current_step?.bit_body).toContain('pong body');
    const stored = async () => (await h.store.store.db.selectFrom('step_snapshots').select('hash').where('account_id', '=', h.accountId).execute()).length;
    const hashes = async () => (await h.store.store.db.selectFrom('trail_steps').select('snapshot_hash').where('trail_id', '=', trail.trail_id).orderBy('seq').execute()).map((r) => r.snapshot_hash);
    const [ping, pong] = await hashes();
    expect(await hashes()).toEqual([ping, pong, ping, pong, ping, pong]);
    const before = await stored();

    // A bit changed since its last entry is stored anew; a second trail through the same bits stores nothing new.
    await h.owner.client.ok('update_bit', { bit_id: bit.ping, bit_title: 'Ping again' });
    const again = await h.owner.client.ok<Trail>('advance_trail', { trail_id: trail.trail_id });
    expect(again.current_step).toMatchObject({ bit_title: 'Ping again', seq: 7 });
    expect(again.current_step?.bit_body).toContain('ping body');
    const changed = (await hashes())[6];
    expect(changed).not.toBe(ping);
    expect(await stored()).toBe(before + 1);
    const second = await start(cycleFlow);
    await h.owner.client.ok('advance_trail', { trail_id: second.trail_id });
    expect(await stored()).toBe(before + 1);
    const secondHashes = (await h.store.store.db.selectFrom('trail_steps').select('snapshot_hash').where('trail_id', '=', second.trail_id).orderBy('seq').execute()).map((r) => r.snapshot_hash);
    expect(secondHashes).toEqual([changed, pong]);
    const steps = await h.store.store.db.selectFrom('trail_steps').select(['bit_snapshot', 'snapshot_step_id']).where('trail_id', 'in', [trail.trail_id, second.trail_id]).execute();
    expect(steps.every((s) => h.store.store.dialect.parseJson(s.bit_snapshot) === null && s.snapshot_step_id === null)).toBe(true);
    await h.owner.client.ok('cancel_trail', { trail_id: second.trail_id });
    await h.owner.client.ok('update_bit', { bit_id: bit.ping, bit_title: 'Ping' });
  });

  it('a step sharing an earlier snapshot reads as its own: the inbox (title, human_required) and the step form', async () => {
    const desk = (await addTestBit(h, { title: 'Desk', blocks: [p('desk body')] })).bit_id;
    const sign = (await addTestBit(h, { title: 'Sign', humanRequired: true, blocks: [p('sign body')] })).bit_id;
    await connectTestBits(h, desk, sign);
    await connectTestBits(h, sign, desk);
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Desk loop', start_bit_id: desk });
    const person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['run'] });
    const trail = await person.client.ok<Trail>('start_trail', { flow_id });
    for (let i = 0; i < 3; i++) await person.client.ok('advance_trail', { trail_id: trail.trail_id });
    const steps = await h.store.store.db.selectFrom('trail_steps').select(['seq', 'snapshot_hash']).where('trail_id', '=', trail.trail_id).orderBy('seq').execute();
    expect(steps.map((s) => s.seq)).toEqual([1, 2, 3, 4]);
    expect(steps[3]?.snapshot_hash).toBe(steps[1]?.snapshot_hash);

    const actor = await h.services.auth.authenticate(person.token);
    const inbox = await h.services.inbox.list(actor!, {});
    expect(inbox.items.find((item) => item.trail_id === trail.trail_id)).toMatchObject({ bit_title: 'Sign', human_required: true, reasons: ['started_by_me', 'human_required'] });
    const form = await h.services.stepForm.payload(actor!, { trail_id: trail.trail_id });
    expect(form.step).toMatchObject({ bit_title: 'Sign', seq: 4, human_required: true });
    expect(JSON.stringify(form.step?.body)).toContain('sign body');
  });

  it('trail_context over its bounds is VALIDATION_ERROR before any validation, with or without a schema', async () => {
    const big = { blob: 'x'.repeat(LIMITS.trailContextBytes) };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [big, 'bytes', 'trail_context'],
      [{ list: Array.from({ length: LIMITS.trailContextArrayItems + 1 }, () => 'a') }, 'arrayItems', 'trail_context.list'],
      [Object.fromEntries(Array.from({ length: LIMITS.trailContextKeys + 1 }, (_, i) => [`k${i}`, 1])), 'keys', 'trail_context'],
      [{ a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }, 'depth', 'trail_context.a.b.c.d.e.f.g.h'],
    ];
    for (const [trail_context, limit, path] of cases) {
      const error = await h.owner.client.fail('start_trail', { flow_id: lineFlow, trail_context });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toMatchObject({ limit, issues: [{ path }] });
    }
  });

  it('TRAIL_CONTEXT_INVALID lists at most 50 issues, with the full count in details.issue_count', async () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      additionalProperties: false,
    };
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Tags', start_bit_id: bit.one, trail_context_schema: schema });
    const context = { tags: Array.from({ length: 300 }, (_, i) => `wrong${i}`), ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`extra${i}`, 1])) };
    const error = await h.owner.client.fail('start_trail', { flow_id, trail_context: context });
    expect(error.code).toBe('TRAIL_CONTEXT_INVALID');
    expect(error.details?.issues).toHaveLength(LIMITS.issuesPerError);
    expect(error.details?.issue_count).toBe(400);
    expect(error.message.length).toBeLessThanOrEqual(LIMITS.errorMessageLength);
    expect(error.message).toContain('(and 350 more; details.issue_count has the total)');
  });

  it('answers over their bounds are VALIDATION_ERROR and nothing is recorded: per value, per call, per step', async () => {
    const trail = await start(cycleFlow);
    const id = trail.trail_id;
    const value = await h.owner.client.fail('submit_step_data', { trail_id: id, data: [answer(notes, 'x'.repeat(LIMITS.answerValueBytes))] });
    expect(value.details).toMatchObject({ limit: 'answerValueBytes', issues: [{ path: 'data[0].value' }] });
    const quarter = 'y'.repeat(LIMITS.answerValueBytes - 100);
    const call = await h.owner.client.fail('submit_step_data', { trail_id: id, data: [1, 2, 3, 4, 5].map(() => answer(notes, quarter)) });
    expect(call.details).toMatchObject({ limit: 'answersPerCallBytes' });
    // A step keeps every answer given (replaced ones too) up to its bound: calls of 200 answers of 5000 characters.
    const full = Array.from({ length: 200 }, () => answer(notes, 'z'.repeat(LIMITS.textAnswerLength)));
    const perCall = 200 * Buffer.byteLength(JSON.stringify({ value: 'z'.repeat(LIMITS.textAnswerLength) }));
    const calls = Math.floor(LIMITS.answersPerStepBytes / perCall);
    for (let i = 0; i < calls; i++) await h.owner.client.ok('submit_step_data', { trail_id: id, data: full });
    const step = await h.owner.client.fail('submit_step_data', { trail_id: id, data: full });
    expect(step.details).toMatchObject({ limit: 'answersPerStepBytes', max: LIMITS.answersPerStepBytes });
    const view = await h.owner.client.ok<Trail>('get_trail', { trail_id: id });
    expect(view.history[0].answers).toHaveLength(calls * 200);
  });
});
