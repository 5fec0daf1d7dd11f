/**
 * Property (issue 3, "Done when"): for generated bodies, an update that writes back what get_bit
 * returned is accepted and changes no node, through the real MCP client on each engine.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';

const word = fc.stringMatching(/^[A-Za-z][a-z]{0,7}$/);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
const inline = fc.oneof(
  words,
  words.map((w) => `**${w}**`),
  words.map((w) => `_${w}_`),
  words.map((w) => `\`${w}\``),
  fc.tuple(words, word).map(([t, p]) => `[${t}](https://example.com/${p})`),
  fc.tuple(words, word).map(([t, p]) => `![${t}](https://example.com/${p}.png)`),
  words.map((w) => `<b>${w}</b> & 1 < 2`),
);
const paragraph = fc.array(inline, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));

interface Generated {
  markdown: string;
  elements: Array<Record<string, unknown>>;
}

const block = (n: number): fc.Arbitrary<Generated> =>
  fc.oneof(
    paragraph.map((p) => ({ markdown: p, elements: [] })),
    fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([level, w]) => ({ markdown: `${'#'.repeat(level)} ${w}`, elements: [] })),
    fc.array(paragraph, { minLength: 1, maxLength: 3 }).map((items) => ({ markdown: items.map((i) => `* ${i}`).join('\n'), elements: [] })),
    fc.array(paragraph, { minLength: 1, maxLength: 3 }).map((items) => ({ markdown: items.map((i, k) => `${k + 1}. ${i}`).join('\n'), elements: [] })),
    paragraph.map((p) => ({ markdown: `> ${p}`, elements: [] })),
    words.map((w) => ({ markdown: '```\n' + w + '\n```', elements: [] })),
    words.map((w) => ({ markdown: `[text-area: ${w}](waymark-node:t${n})`, elements: [{ key: `t${n}`, type: 'text-area', props: { required: true } }] })),
    fc.array(words, { minLength: 1, maxLength: 3 }).map((items) => ({
      markdown: `[check-list: List](waymark-node:c${n})\n` + items.map((w, k) => `- [ ] [${w}](waymark-node:c${n}i${k})`).join('\n'),
      elements: [{ key: `c${n}`, type: 'check-list', items: items.map((_, k) => ({ key: `c${n}i${k}`, required: k === 0 })) }],
    })),
    fc.array(words, { minLength: 1, maxLength: 3 }).map((items) => ({
      markdown: `[dropdown: Pick](waymark-node:d${n})\n` + items.map((w, k) => `- [${w}](waymark-node:d${n}o${k})`).join('\n'),
      elements: [{ key: `d${n}`, type: 'dropdown', items: items.map((w, k) => ({ key: `d${n}o${k}`, value: `v${k}` })) }],
    })),
  );

const body = fc
  .array(fc.nat(), { minLength: 1, maxLength: 6 })
  .chain((seeds) => fc.tuple(...seeds.map((_, i) => block(i))))
  .map((blocks) => ({ markdown: blocks.map((b) => b.markdown).join('\n\n') + '\n', elements: blocks.flatMap((b) => b.elements) }));

describe.each(ENGINES)('write-back property on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  it('writing back what get_bit returned is accepted and changes no node', async () => {
    await fc.assert(
      fc.asyncProperty(body, async ({ markdown, elements }) => {
        const { bit_id } = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'generated', bit_body: markdown, elements });
        const first = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id });
        const slateBefore = await h.owner.client.ok<{ bit_body: unknown }>('get_bit', { bit_id, format: 'slate' });
        const written = await h.owner.client.ok<{ removed_node_ids: string[]; minted_node_ids: Record<string, string> }>('update_bit', {
          bit_id,
          bit_body: first.bit_body,
          content_format: 'markdown',
        });
        expect(written.removed_node_ids).toEqual([]);
        expect(written.minted_node_ids).toEqual({});
        const slateAfter = await h.owner.client.ok<{ bit_body: unknown }>('get_bit', { bit_id, format: 'slate' });
        expect(slateAfter.bit_body).toEqual(slateBefore.bit_body);
        expect((await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id })).bit_body).toBe(first.bit_body);
      }),
      { numRuns: Number(process.env.WAYMARK_PROPERTY_RUNS ?? 40) },
    );
  });
});
