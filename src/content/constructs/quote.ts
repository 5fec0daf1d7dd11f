/** Block quote: `blockquote`, whose children are blocks; each of its lines starts with `> `. */
import type { BlockNode, BlockquoteNode } from '../slate.js';
import { onlyKeys } from './input.js';
import { closeContainer } from './containers.js';
import type { Construct, NodeHandler } from './types.js';

const QUOTE = { first: '> ', rest: '> ' };

const blockquote: NodeHandler<BlockquoteNode> = {
  standsIn: ['block', 'li'],
  input(value, step) {
    onlyKeys(value, ['type', 'children'], step.path);
    const node: BlockquoteNode = { type: 'blockquote', children: [] };
    step.out.push(node);
    step.children(value, 'block', node.children, step.depth + 1, { type: 'p', children: [{ text: '' }] });
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
