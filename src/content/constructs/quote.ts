/** Block quote: `blockquote`, whose children are blocks; each of its lines starts with `> `. */
import { z } from 'zod';
import type { BlockNode } from '../slate.js';
import { CHILDREN } from './input.js';
import { closeContainer } from './containers.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const QUOTE = { first: '> ', rest: '> ' };

const blockquoteShape = z.strictObject({ type: z.literal('blockquote'), children: CHILDREN });

export interface BlockquoteNode extends ShapeFields<typeof blockquoteShape> {
  children: BlockNode[];
}

const blockquote: NodeHandler<BlockquoteNode, typeof blockquoteShape> = {
  standsIn: ['block', 'li'],
  holds: 'block',
  shape: blockquoteShape,
  input(fields, step) {
    const node: BlockquoteNode = { type: 'blockquote', children: [] };
    step.out.push(node);
    step.children(fields.children, node.children, step.depth + 1, { type: 'p', children: [{ text: '' }] });
  },
  render: {
    block: {
      block(node, _task, w) {
        w.open(QUOTE, node.children as BlockNode[], false);
      },
    },
  },
  text: 'descend',
};

export const quote: Construct<'blockquote'> = {
  name: 'quote',
  nodes: { blockquote: blockquote as NodeHandler },
  blockTokens: {
    blockquote_open(walk, _t, i) {
      walk.open({ type: 'blockquote', children: [] });
      return i;
    },
    blockquote_close(walk, _t, i) {
      closeContainer(walk);
      return i;
    },
  },
  syntax: () => [],
};
