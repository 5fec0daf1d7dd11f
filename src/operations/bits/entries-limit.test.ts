/**
 * A body at the entries limit through the real add_bit (issue 24, finding 11): 40 check-lists of 4 items,
 * 200 entries and items, were refused with UNSUPPORTED_MARKDOWN_CONSTRUCT where a run of block tokens ended
 * between an element line and its items (content/markdown/run-boundary.test.ts cuts at every place).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../limits/index.js';
import { manyCheckLists } from '../../content/test-support/check-lists.js';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import type { BitWriteResult as Written } from '../../services/bits/shapes.js';

interface BitView {
  bit_body: string;
  elements: Array<{ type: string; items?: unknown[] }>;
}

describe.each(ENGINES)('a body at the entries limit on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  it('adds 40 check-lists of 4 items and writes the body back unchanged', async () => {
    const { markdown, elements } = manyCheckLists();
    const written = await h.owner.client.ok<Written>('add_bit', { bit_title: 'Many lists', bit_body: markdown, elements });
    expect(Object.keys(written.minted_node_ids)).toHaveLength(LIMITS.entriesAndItemsPerCall);
    const bit = await h.owner.client.ok<BitView>('get_bit', { bit_id: written.bit_id });
    expect(bit.elements.map((e) => [e.type, e.items?.length])).toEqual(elements.map(() => ['check-list', 4]));
    const again = await h.owner.client.ok<Written>('update_bit', { bit_id: written.bit_id, bit_body: bit.bit_body, content_format: 'markdown' });
    expect(again.removed_node_ids).toEqual([]);
  });
});
