/**
 * Property tests of the converter: for generated markdown and generated Slate bodies, printing is a
 * fixpoint after one round, and writing back what was printed (with the body as the previous one) changes
 * no node, ids included. A refusal is always a WaymarkError, never a crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WaymarkError } from '../../errors.js';
import { bodyToMarkdown, markdownToBody, slateToBody, type SlateBody } from '../index.js';
import { idMaker } from '../test-support/ids.js';

const REF = '11111111-1111-4111-8111-111111111111';

/** Pieces of markdown that exercise every construct and every escaping rule when strung together. */
const FRAGMENTS = [
  'a', 'b', 'word', 'ünï', '1', '2.', '3)', ' ', ' ', '  ', '\t', '\n', '\n', '\n\n', '\\', '\\\n',
  '*', '**', '_', '__', '~', '~~', '`', '``', '#', '# ', '## ', '>', '> ', '- ', '+ ', '* ', '1. ', '   ',
  '[', ']', '(', ')', '!', '<', '>', '&', '&amp;', '&#35;', '|', '---', '***', '===', ':', '"',
  '[x](https://example.com)', '[y](/rel "T")', '![i](https://example.com/i.png)', '<https://example.com>',
  `[[ref:${REF}|label]]`, '[credential: key](credential:key "why")', '- [ ] ', '- [x] ', '```\n', '~~~\n',
  '| a | b |\n| - | - |\n', '    ', 'x_y', 'text-area', '(required)',
];

const markdownArb = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 }).map((parts) => parts.join(''));

function roundTrip(first: SlateBody): void {
  const printed = bodyToMarkdown(first);
  const second = markdownToBody(printed, { previous: first, newId: idMaker() }).body;
  const reprinted = bodyToMarkdown(second);
  expect(reprinted).toBe(printed);
  const third = markdownToBody(reprinted, { previous: second, newId: idMaker() });
  expect(third.body).toEqual(second);
  expect(third.minted).toEqual({});
}

describe('generated markdown', () => {
  it('prints a fixpoint after one round, and writing it back changes no node', () => {
    let accepted = 0;
    fc.assert(
      fc.property(markdownArb, (markdown) => {
        let body: SlateBody;
        try {
          body = markdownToBody(markdown, { newId: idMaker() }).body;
        } catch (e) {
          expect(e).toBeInstanceOf(WaymarkError);
          return;
        }
        accepted++;
        roundTrip(body);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
    // Most generated texts are accepted; the rest are refused by a rule (imitation, url), never a crash.
    expect(accepted).toBeGreaterThan(1500);
  });
});

// ---- generated Slate ----------------------------------------------------------------------------------

const textArb = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '*', '_', '`', '[', ']', '\\', '#', '-', '1', '.', '<', '&', '~', '|', '!', 'é', '\n', '\t', '"', '(', ')'), minLength: 1, maxLength: 8 });

const leafArb = fc.record(
  { text: textArb, bold: fc.constant(true), italic: fc.constant(true), strikethrough: fc.constant(true), code: fc.constant(true) },
  { requiredKeys: ['text'] },
);

const inlineArb = fc.oneof(
  { weight: 6, arbitrary: leafArb },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('a'), url: fc.constantFrom('https://example.com/a', '/x', '#f'), children: fc.array(leafArb, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('img'), url: fc.constant('https://example.com/i.png'), alt: textArb, children: fc.constant([{ text: '' }]) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('citation'), reference_id: fc.constant(REF), label: textArb, children: fc.constant([{ text: '' }]) }) },
);

const inlinesArb = fc.array(
  fc.oneof(
    { weight: 8, arbitrary: inlineArb },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('link-inline'), props: fc.record({ url: fc.constant('https://example.com/l') }), children: fc.array(leafArb, { minLength: 1, maxLength: 2 }) }) },
  ),
  { minLength: 1, maxLength: 6 },
);

const TARGET = '22222222-2222-4222-8222-222222222222';

/** Elements, connections and tables, with texts that need escaping in labels and cells. */
const structuredArb = fc.oneof(
  fc.record({ type: fc.constant('text-area'), props: fc.record({ label: textArb, required: fc.boolean() }, { requiredKeys: [] }), children: fc.constant([{ text: '' }]) }),
  fc.record({
    type: fc.constant('check-list'),
    props: fc.record({ label: textArb }, { requiredKeys: [] }),
    items: fc.array(fc.record({ text: textArb, checked: fc.boolean(), required: fc.boolean() }), { maxLength: 3 }),
    children: fc.constant([{ text: '' }]),
  }),
  fc.record({ type: fc.constant('dropdown'), props: fc.constant({}), items: fc.array(fc.record({ name: textArb }), { maxLength: 3 }), children: fc.constant([{ text: '' }]) }),
  fc.record({ type: fc.constant('iframe'), props: fc.record({ url: fc.constant('https://example.com/e'), width: fc.constantFrom(300, '300') }), children: fc.constant([{ text: '' }]) }),
  fc.record({ type: fc.constant('bit-connection'), target_bit_id: fc.constant(TARGET), label: fc.option(textArb), params: fc.constantFrom({}, { preview: false }), children: fc.constant([{ text: '' }]) }),
  fc.integer({ min: 1, max: 3 }).chain((columns) =>
    fc.record({
      type: fc.constant('table'),
      children: fc.array(
        fc.array(fc.record({ children: fc.tuple(fc.record({ type: fc.constant('p'), children: inlinesArb })) }), { minLength: columns, maxLength: columns }),
        { minLength: 1, maxLength: 3 },
      ).map((rows) => rows.map((cells, r) => ({ type: 'tr', children: cells.map((c) => ({ type: r === 0 ? 'th' : 'td', ...c })) }))),
    }),
  ),
);

const { block: blockArb } = fc.letrec<{ block: unknown; item: unknown }>((tie) => ({
  block: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: fc.record({ type: fc.constant('p'), children: inlinesArb }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('h1', 'h3'), children: inlinesArb }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('blockquote'), children: fc.array(tie('block'), { minLength: 1, maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('ul', 'ol'), children: fc.array(tie('item'), { minLength: 1, maxLength: 3 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('code_block'),
        lang: fc.constantFrom('js', 'a b'),
        children: fc.array(fc.record({ type: fc.constant('code_line'), children: fc.tuple(fc.record({ text: textArb })) }), { minLength: 1, maxLength: 3 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ type: 'hr', children: [{ text: '' }] }) },
    { weight: 2, arbitrary: structuredArb },
  ),
  item: fc.record({
    type: fc.constant('li'),
    children: fc.tuple(fc.record({ type: fc.constant('lic'), children: inlinesArb })).chain(([first]) =>
      fc.array(tie('block'), { maxLength: 1 }).map((rest) => [first, ...rest]),
    ),
  }),
}));

describe('generated Slate bodies', () => {
  it('print a fixpoint after one round, and writing it back changes no node', () => {
    fc.assert(
      fc.property(fc.array(blockArb, { minLength: 1, maxLength: 5 }), (children) => {
        let body: SlateBody;
        try {
          body = slateToBody(children, { newId: idMaker() });
        } catch (e) {
          // The generator can write what slateToBody refuses (a blank item text): a refusal, never a crash.
          expect(e).toBeInstanceOf(WaymarkError);
          return;
        }
        const printed = bodyToMarkdown(body);
        const second = markdownToBody(printed, { previous: body, newId: idMaker() }).body;
        roundTrip(second);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 1000) },
    );
  });
});
