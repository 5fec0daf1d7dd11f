import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { startHarness, type Harness } from '../../test/harness.js';

describe.each(ENGINES)('list_bits and list_flows `query` ignores case in any script on %s', (engine) => {
  let h: Harness;
  let bit: string;
  beforeAll(async () => {
    h = await startHarness(engine);
    bit = (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Ärger ÖL', bit_body: 'Step.', bit_description: 'Straße ΣΟΦΙΑ' })).bit_id;
    await h.owner.client.ok('add_bit', { bit_title: 'Plain', bit_body: 'Step.' });
    await h.owner.client.ok('create_flow', { flow_title: 'Übersicht ÉTÉ', start_bit_id: bit });
    await h.owner.client.ok('create_flow', { flow_title: 'Other', start_bit_id: bit, flow_description: 'ČESKÝ popis' });
  });
  afterAll(async () => h.close());

  it('matches non-ASCII capitals in titles and descriptions whichever case the query has', async () => {
    const bits = async (query: string) => (await h.owner.client.ok<{ bits: Array<{ bit_title: string }> }>('list_bits', { query })).bits.map((b) => b.bit_title);
    const flows = async (query: string) => (await h.owner.client.ok<{ flows: Array<{ flow_title: string }> }>('list_flows', { query })).flows.map((f) => f.flow_title);
    for (const query of ['ärger', 'ÄRGER', 'ÖL', 'öl', 'r öl', 'straße', 'σοφια']) expect(await bits(query), query).toEqual(['Ärger ÖL']);
    for (const query of ['übersicht', 'ÜBERSICHT', 'été']) expect(await flows(query), query).toEqual(['Übersicht ÉTÉ']);
    expect(await flows('český')).toEqual(['Other']);
    // Case is folded, accents are not: a title is matched as written.
    expect(await bits('arger')).toEqual([]);
  });
});
