/** Heading: `h1`…`h6`, written ATX style (`# …`) on one line. */
import type { Token } from 'markdown-it';
import { buildInlines } from '../markdown/inline.js';
import { HEADING_TYPES, type HeadingType, type TextBlock } from '../slate.js';
import { inputTextBlock, textBlockShape } from './paragraph.js';
import { SINGLE_LINE } from './text-contexts.js';
import type { Construct, NodeHandler } from './types.js';

const headingShape = textBlockShape(HEADING_TYPES as [HeadingType, ...HeadingType[]]);

const heading: NodeHandler<TextBlock, typeof headingShape> = {
  standsIn: ['block', 'li'],
  holds: 'inline',
  shape: headingShape,
  input: inputTextBlock,
  render: {
    block: {
      block(node, _task, w) {
        const level = Number(node.type[1]);
        let text = w.inlines(node.children, SINGLE_LINE);
        // A closing run of `#` would be dropped from the heading.
        if (/(^|[ \t])#+$/.test(text)) text = text.replace(/#+$/, (run) => `\\${run}`);
        w.line(text === '' ? '#'.repeat(level) : `${'#'.repeat(level)} ${text}`);
      },
    },
  },
  text: 'line',
};

function lineOf(t: Token): number {
  return t.map ? t.map[0] + 1 : 1;
}

const h = heading as NodeHandler;

export const headings: Construct<HeadingType> = {
  name: 'heading',
  nodes: { h1: h, h2: h, h3: h, h4: h, h5: h, h6: h },
  blockTokens: {
    heading_open(walk, t, i) {
      const inline = walk.ctx.inline(walk.tokens[i + 1]);
      walk.add({ type: t.tag as HeadingType, children: buildInlines(walk.ctx, inline, 0, inline.length, lineOf(t)) });
      return i + 2;
    },
  },
  syntax: () => [],
};
