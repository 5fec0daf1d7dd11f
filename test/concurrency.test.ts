/**
 * Issue 4, "Concurrency", short form: two server processes on one store (`waymark serve` on PostgreSQL,
 * `waymark stdio` on the embedded store) run random connect / remove / update / archive calls on a few
 * bits at once. Afterwards every bit's body nodes equal its mirror rows (test/invariants.ts) and no call
 * answered INTERNAL_ERROR or anything a race cannot explain. WAYMARK_CONCURRENCY_OPS sets the number of
 * calls; `npm run bench` runs the long form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../src/services/index.js';
import { runConnectionWorkload, startProcessClients, type ProcessClients } from './concurrency.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { assertGraphInvariant } from './invariants.js';

const OPS = Number(process.env.WAYMARK_CONCURRENCY_OPS ?? 400);
const BITS = 6;

describe.each(ENGINES)('concurrent connection writes on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let processes: ProcessClients;
  let bitIds: string[];
  let restore: (bitId: string) => Promise<void>;

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
    const { token } = (await services.auth.init()).token ?? { token: '' };
    const actor = await services.auth.authenticate(token);
    if (!actor) throw new Error('init gave a token that does not authenticate');
    bitIds = [];
    for (let i = 0; i < BITS; i++) bitIds.push((await services.bits.add(actor, { bit_title: `Bit ${i}`, bit_body: `Step ${i}` })).bit_id);
    restore = async (bitId) => {
      await services.bitRestore.restore(actor, { bit_id: bitId });
    };
    processes = await startProcessClients(engine, ts.env, token);
  });
  afterAll(async () => {
    await processes?.close();
    await ts?.close();
  });

  it(`keeps every body equal to its mirror rows through ${OPS} racing calls`, async () => {
    const report = await runConnectionWorkload({ clients: processes.clients, bitIds, ops: OPS, concurrencyPerClient: engine === 'postgres' ? 2 : 3, seed: 4, restore });
    expect(report.unexpected).toEqual([]);
    expect(report.internal_errors).toBe(0);
    for (const tool of ['connect_bits', 'remove_connection', 'update_bit', 'archive_bit']) expect(report.tools[tool]?.ok, tool).toBeGreaterThan(0);
    await assertGraphInvariant(ts.store);
  });
});
