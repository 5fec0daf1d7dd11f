/**
 * Inline element: an interactive element placed inside a sentence (every element type whose definition
 * says `placement: 'inline'`), written as a link whose title holds its anchor,
 * `[<text>](<url> "waymark-node:<key-or-id>")`; its children are the link's text, its `url` prop the destination.
 */
import { ELEMENTS } from '../elements/index.js';
import { escapeDestination, escapeTitle } from '../markdown/escape.js';
import { textOf, type ElementNode, type InlineNode } from '../slate.js';
import { anchorTitle } from './anchor.js';
import { elementInput, elementInventory, type ElementHandler } from './element-line.js';

export const inlineElement: ElementHandler = {
  standsIn: ['inline'],
  holds: 'link',
  input: (fields, step) => elementInput(fields, step, ELEMENTS[fields.type as ElementNode['type']]),
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
