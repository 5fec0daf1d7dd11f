import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../test/engines.js';
import { waymark } from '../../test/cli.js';
import { operatorActor } from '../services/actor.js';
import { createServices } from '../services/index.js';
import { ELEMENT_TYPES } from '../content/index.js';

/** `waymark init --sample` (issue 28): a new store starts with a flow to try, approved and active; again, nothing changes. */
describe.each(ENGINES)('init --sample on %s', (engine) => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore(engine, { migrate: false });
  });
  afterAll(async () => ts.close());

  it('adds the sample flow once: every element type, a branch, a step only a person may do; a trail starts on it', async () => {
    const first = await waymark(ts.env, 'init', '--sample');
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/Added the sample flow [0-9a-f-]{36}, approved and active/);
    const services = createServices(ts.store);
    const account = (await ts.store.db.selectFrom('accounts').select('id').executeTakeFirstOrThrow()).id;
    const actor = operatorActor(account);
    const { flows } = await services.flows.list(actor, {});
    expect(flows.map((f) => [f.flow_title, f.is_active, f.review_status])).toEqual([['Welcome a new colleague (sample)', true, 'approved']]);
    const flow = await services.flows.get(actor, { flow_id: flows[0]!.flow_id, include_graph: true });
    const bits = await Promise.all((flow.graph?.bits ?? []).map((b) => services.bits.get(actor, { bit_id: b.bit_id, format: 'slate' })));
    expect(bits.length).toBe(4);
    const types = new Set(bits.flatMap((b) => (b.elements ?? []).map((e) => e.type)));
    expect([...types].sort()).toEqual([...ELEMENT_TYPES].sort());
    expect(bits.filter((b) => b.human_required).map((b) => b.bit_title)).toEqual(['Approve system access']);
    expect(Math.max(...bits.map((b) => b.connections?.length ?? 0))).toBe(2);
    const trail = await services.trails.start(actor, { flow_id: flows[0]!.flow_id, trail_context: { colleague: 'Sam' } }, 'markdown');
    expect(trail.trail.current_step?.bit_title).toBe('Plan the first day');

    const again = await waymark(ts.env, 'init', '--sample');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/The sample flow [0-9a-f-]{36} is already there\./);
  });
});
