import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';

interface Written {
  bit_id: string;
  last_modified_date_time_utc: string;
  minted_node_ids: Record<string, string>;
  removed_node_ids: string[];
}
interface BitView {
  bit_body: string;
  bit_title: string;
  bit_abstract: string | null;
  bit_description: string | null;
  bit_categories: string[];
  status: string;
  elements: Array<{ id: string; type: string; props: Record<string, unknown>; items?: Array<{ id: string } & Record<string, unknown>> }>;
  connections: Array<{ connection_id: string; target_bit_id: string; sort_order: number }>;
  last_modified_date_time_utc: string;
}

describe.each(ENGINES)('bits on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  const add = (args: Record<string, unknown>) => h.owner.client.ok<Written>('add_bit', args);
  const get = (id: string, format?: string) => h.owner.client.ok<BitView>('get_bit', { bit_id: id, ...(format ? { format } : {}) });

  it('adds a bit with elements and gives the body back with ids in anchors', async () => {
    const written = await add({
      bit_title: 'Check the invoice',
      bit_body: 'Look at the **invoice** first.\n\n[text-area: Notes](waymark-node:notes)\n\n[check-list: Steps](waymark-node:steps)\n- [ ] [Open it](waymark-node:s1)\n- [x] [Sign it](waymark-node:s2)\n',
      elements: [
        { key: 'notes', type: 'text-area', props: { required: true, maxLength: '200' } },
        { key: 'steps', type: 'check-list', items: [{ key: 's1', required: true }, { key: 's2' }] },
      ],
    });
    expect(Object.keys(written.minted_node_ids).sort()).toEqual(['notes', 's1', 's2', 'steps']);
    const bit = await get(written.bit_id);
    const { notes, steps, s1, s2 } = written.minted_node_ids;
    expect(bit.bit_body).toBe(
      `Look at the **invoice** first.\n\n[text-area: Notes](waymark-node:${notes}) (required)\n\n[check-list: Steps](waymark-node:${steps})\n- [ ] [Open it](waymark-node:${s1}) *(required)*\n- [x] [Sign it](waymark-node:${s2})\n`,
    );
    expect(bit.elements.map((e) => e.type)).toEqual(['text-area', 'check-list']);
    // Writing back what get_bit returned changes no node.
    const again = await h.owner.client.ok<Written>('update_bit', { bit_id: written.bit_id, bit_body: bit.bit_body, content_format: 'markdown' });
    expect(again.removed_node_ids).toEqual([]);
    expect((await get(written.bit_id)).bit_body).toBe(bit.bit_body);
  });
});
