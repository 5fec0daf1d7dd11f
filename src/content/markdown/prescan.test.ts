/**
 * The pre-scan's floor of what a body's lines become (prescan.ts): never more than the body stored (a body that
 * fits is never refused by it), and enough to refuse, before markdown-it is handed them, bodies whose lines
 * alone pass the limit (issue 24, finding 10: 7.9 MB of `a\n\n` took 340 MB before the output budget refused it).
 */
import { describe, expect, it } from 'vitest';
import { markdownToBody } from '../index.js';
import { LIMITS } from '../../limits/index.js';
import { CONSTRUCT_FIXTURES } from '../constructs/fixtures.js';
import { assertMarkdownOutputFloor, markdownOutputFloor } from './prescan.js';

const MB = 1024 * 1024;

/** Bodies of many lines of one kind, and of kinds mixed as people write them. */
const LINE_BODIES: Array<[string, string]> = [
  ['paragraphs', 'a\n\n'],
  ['quotes', '>\n\n'],
  ['thematic breaks', '***\n'],
  ['underscore breaks', '___\n\n'],
  ['ordered items', '1. a\n'],
  ['ordered items from 2', 'text\n\n2. a\n3. b\n'],
  ['bullets', '- a\n'],
  ['headings', '# a\n'],
  ['link definitions', '[r]: https://example.com\n\n'],
  ['a paragraph of many lines', 'a\n'],
  ['lazy lines', '> a\nb\n\n'],
  ['loose list', '- a\n\n  b\n\n'],
  ['ordered then text', '1. a\n   text\n3. b\n\n'],
  ['setext', 'a\n---\n\n'],
  ['fenced', '```\ncode\n\n```\n\n'],
  ['indented code', '    code\n\n    more\n\n'],
  ['table', '| a | b |\n| - | - |\n| c | d |\n\n'],
  ['mixed', '# Title\n\nSome *prose* with a [link](https://example.com).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n***\n\n'],
];

describe('the output floor of a body’s lines', () => {
  it.each(CONSTRUCT_FIXTURES.map((c) => [c.name, c] as const))('is at most what %s is stored as', (_name, c) => {
    const { body } = markdownToBody(c.markdown, { elements: c.elements });
    expect(markdownOutputFloor(c.markdown)).toBeLessThanOrEqual(JSON.stringify(body).length);
  });

  it.each(LINE_BODIES)('is at most what %s are stored as', (_name, unit) => {
    const markdown = unit.repeat(200);
    const { body } = markdownToBody(markdown);
    const stored = JSON.stringify(body).length;
    expect(markdownOutputFloor(markdown)).toBeLessThanOrEqual(stored);
  });

  it.each([
    ['paragraphs', 'a\n\n'],
    ['quotes', '>\n\n'],
    ['thematic breaks', '***\n'],
    ['ordered items', '1. a\n'],
  ])('refuses 7.9 MB of %s before they are parsed', (_name, unit) => {
    const markdown = unit.repeat(Math.floor((7.9 * MB) / unit.length));
    expect(() => assertMarkdownOutputFloor(markdown)).toThrow(expect.objectContaining({ code: 'BODY_TOO_LARGE' }) as Error);
  });

  it('leaves a body that fits to the converter', () => {
    const markdown = 'A paragraph of ordinary prose.\n\n'.repeat(Math.floor(LIMITS.bodyBytes / 2 / 48));
    expect(() => assertMarkdownOutputFloor(markdown)).not.toThrow();
  });
});
