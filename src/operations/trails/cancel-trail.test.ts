/**
 * cancel_trail: ends a trail for good, keeps who, when and why in the history of the step it was on;
 * a completed or cancelled trail is TRAIL_NOT_RUNNING for it and for every other trail call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { checkList, textArea } from '../../../test/trail-fixtures.js';
import type { TrailView } from '../../services/trails/shapes.js';

type Trail = TrailView;

const answer = (element_id: string, element_type: string, inner: unknown) => ({ element_id, element_type, value: { value: inner } });

describe.each(ENGINES)('cancel_trail on %s', (engine) => {
  let h: Harness;
  /** The writing tools answer what changed; the history is get_trail's. */
  const historyOf = async (trailId: string) => (await h.owner.client.ok<Trail>('get_trail', { trail_id: trailId })).history;
  let person: Principal;
  let flowId: string;
  let first: string;
  let second: string;
  let notes: string;
  let sig: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    person = await h.principal({ kind: 'person', permission: 'view', capabilities: ['run'] });
    const writing = await addTestBit(h, { title: 'First', blocks: [textArea('notes')] });
    first = writing.bit_id;
    notes = writing.ids.notes;
    const signing = await addTestBit(h, { title: 'Sign', humanRequired: true, blocks: [checkList('sign', [{ id: 'sig', required: true }])] });
    second = signing.bit_id;
    sig = signing.ids.sig;
    await connectTestBits(h, first, second);
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Cancellable', start_bit_id: first })).flow_id;
  });
  afterAll(async () => h.close());

  const start = () => h.owner.client.ok<Trail>('start_trail', { flow_id: flowId });

  it('cancels a running trail: status cancelled, no current step, who, when and why in the history', async () => {
    const trail = await start();
    const cancelled = await h.owner.client.ok<Trail>('cancel_trail', { trail_id: trail.trail_id, reason: 'Customer withdrew' });
    expect(cancelled).toMatchObject({ trail_id: trail.trail_id, status: 'cancelled', current_step: null });
    expect(cancelled.last_modified_date_time_utc > trail.last_modified_date_time_utc).toBe(true);
    expect((await historyOf(cancelled.trail_id))).toHaveLength(1);
    expect((await historyOf(cancelled.trail_id))[0]).toMatchObject({
      bit_id: first,
      left_by: h.owner.principalId,
      left_by_connection_id: null,
      left_date_time_utc: cancelled.last_modified_date_time_utc,
      cancellation: { reason: 'Customer withdrew', cancelled_by: h.owner.principalId, cancelled_date_time_utc: cancelled.last_modified_date_time_utc },
    });
    expect(await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).toMatchObject(cancelled);
    const listed = await h.owner.client.ok<{ trails: Array<{ trail_id: string; current_bit_id: string | null }> }>('list_trails', { status: 'cancelled' });
    expect(listed.trails).toEqual([expect.objectContaining({ trail_id: trail.trail_id, current_bit_id: null })]);
  });

  it('a cancelled or completed trail is TRAIL_NOT_RUNNING, for cancel_trail too, and nothing changes', async () => {
    const trail = await start();
    const cancelled = await h.owner.client.ok<Trail>('cancel_trail', { trail_id: trail.trail_id });
    expect((await historyOf(cancelled.trail_id))[0].cancellation).toMatchObject({ reason: null, cancelled_by: h.owner.principalId });
    for (const [tool, args] of [
      ['cancel_trail', { reason: 'again' }],
      ['submit_step_data', { data: [answer(notes, 'TextArea', 'late')] }],
      ['advance_trail', {}],
      ['transfer_step', { reason: 'late' }],
    ] as const) {
      const error = await h.owner.client.fail(tool, { trail_id: trail.trail_id, ...args });
      expect(error).toMatchObject({ code: 'TRAIL_NOT_RUNNING', status: 409, details: { status: 'cancelled' } });
    }
    expect(await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).toMatchObject(cancelled);

    const done = await start();
    await h.owner.client.ok('advance_trail', { trail_id: done.trail_id });
    await person.client.ok('submit_step_data', { trail_id: done.trail_id, data: [answer(sig, 'CheckListItem', true)] });
    expect((await person.client.ok<Trail>('advance_trail', { trail_id: done.trail_id })).status).toBe('completed');
    expect(await h.owner.client.fail('cancel_trail', { trail_id: done.trail_id })).toMatchObject({ code: 'TRAIL_NOT_RUNNING', details: { status: 'completed' } });
  });

  it('a trail waiting for a person on a human_required step can be cancelled, by an agent or a person', async () => {
    const trail = await start();
    await h.owner.client.ok('advance_trail', { trail_id: trail.trail_id });
    await h.owner.client.ok('transfer_step', { trail_id: trail.trail_id, reason: 'Needs a signature' });
    const cancelled = await person.client.ok<Trail>('cancel_trail', { trail_id: trail.trail_id, reason: 'Signed on paper instead' });
    expect(cancelled.status).toBe('cancelled');
    expect((await historyOf(cancelled.trail_id))[1]).toMatchObject({ bit_id: second, left_by: person.principalId, cancellation: { reason: 'Signed on paper instead', cancelled_by: person.principalId } });
    expect((await historyOf(cancelled.trail_id))[0].cancellation).toBeNull();
    // The canceller took part in the trail.
    const mine = await h.owner.client.ok<{ trails: Array<{ trail_id: string }> }>('list_trails', { principal_id: person.principalId });
    expect(mine.trails.map((t) => t.trail_id)).toContain(trail.trail_id);

    const agentOnHuman = await start();
    await h.owner.client.ok('advance_trail', { trail_id: agentOnHuman.trail_id });
    expect((await h.owner.client.ok<Trail>('cancel_trail', { trail_id: agentOnHuman.trail_id })).status).toBe('cancelled');
  });

  it('refuses an unknown or foreign trail, a blank or too long reason, and a token without run', async () => {
    const trail = await start();
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('else'), capabilities: ['run'] });
    expect((await stranger.client.fail('cancel_trail', { trail_id: trail.trail_id })).code).toBe('TRAIL_NOT_FOUND');
    expect((await h.owner.client.fail('cancel_trail', { trail_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('TRAIL_NOT_FOUND');
    for (const reason of ['  ', 'x'.repeat(1025)]) {
      expect(await h.owner.client.fail('cancel_trail', { trail_id: trail.trail_id, reason })).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [expect.objectContaining({ path: 'reason' })] } });
    }
    const author = await h.principal({ capabilities: ['author', 'read'] });
    expect((await author.client.fail('cancel_trail', { trail_id: trail.trail_id })).details).toEqual({ required_capability: 'waymark.run' });
    expect((await h.owner.client.ok<Trail>('get_trail', { trail_id: trail.trail_id })).status).toBe('running');
  });

  it('is listed with its annotations, and describe_platform lists it', async () => {
    const { tools } = await h.owner.client.client.listTools();
    expect(tools.find((t) => t.name === 'cancel_trail')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    const platform = await h.owner.client.ok<{ tools: Array<{ name: string; flags: string; capability: string; permission: string }> }>('describe_platform', {});
    expect(platform.tools.find((t) => t.name === 'cancel_trail')).toMatchObject({ flags: 'W, D', capability: 'waymark.run', permission: 'view' });
  });
});
