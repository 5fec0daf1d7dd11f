/**
 * Inline element: an interactive element placed inside a sentence (every element type whose definition
 * says `placement: 'inline'`), written as a link whose title holds its anchor,
 * `[<text>](<url> "waymark-node:<key-or-id>")`; its children are the link's text, its `url` prop the destination.
 */
import { ELEMENTS } from '../elements/index.js';
import { escapeDestination, escapeTitle } from '../markdown/escape.js';
import { textOf, type ElementNode, type InlineNode } from '../slate.js';
import { anchorTitle } from './anchor.js';
import { elementInput, elementInventory } from './element-line.js';
import type { NodeHandler } from './types.js';

export const inlineElement: NodeHandler<ElementNode> = {
  standsIn: ['inline'],
  input: (value, step) => elementInput(value, step, ELEMENTS[value.type as ElementNode['type']]),
  render: {
    inline: {
      kind: 'container',
      inline: (node, mask, ctx, w) =>
        `[${w.linkText(node.children as InlineNode[], mask, ctx)}](${escapeDestination(String(node.props.url ?? ''), ctx)} ${escapeTitle(anchorTitle(node.id, undefined), ctx)})`,
    },
  },
  // Its text is the sentence's.
  text: 'descend',
  inventory: (node, out) => elementInventory(node, textOf(node), out),
};
