/**
 * The converter's own bounds (issue 16, finding 6), where no HTTP request bound stands in front of them (stdio,
 * the in-memory transport here): Slate JSON text longer than LIMITS.slateTextChars is refused before it is
 * parsed, and a node array past LIMITS.bodyNodes stops early; both BODY_TOO_LARGE, nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../limits/index.js';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';

describe.each(ENGINES)('the body budget on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  const bitCount = async () => (await h.owner.client.ok<{ bits: unknown[] }>('list_bits', {})).bits.length;

  it('Slate JSON text over slateTextChars is BODY_TOO_LARGE', async () => {
    const node = '{"type":"p","children":[{"text":"a"}]},';
    const text = `[${node.repeat(Math.ceil(LIMITS.slateTextChars / node.length))}{"type":"hr"}]`;
    expect(text.length).toBeGreaterThan(LIMITS.slateTextChars);
    const error = await h.owner.client.fail('add_bit', { bit_title: 'slate text', bit_body: text, content_format: 'slate' });
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(await bitCount()).toBe(0);
  });

  it('a node array past bodyNodes is BODY_TOO_LARGE', async () => {
    const nodes = Array.from({ length: LIMITS.bodyNodes + 1 }, () => ({ type: 'hr' }));
    const error = await h.owner.client.fail('add_bit', { bit_title: 'many nodes', bit_body: nodes, content_format: 'slate' });
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(await bitCount()).toBe(0);
  });
});
