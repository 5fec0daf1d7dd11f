/**
 * Link: `a`, an inline container with its own id (in the title's anchor), url and optional title. A link
 * whose anchor names an inline element (or its elements[] entry) is that element (./inline-element.ts); a
 * `credential:` destination is a credential declaration (./credential.ts).
 */
import { z } from 'zod';
import { attr } from '../markdown/lines.js';
import { CONNECTION_SCHEME } from '../markdown/connection-url.js';
import { escapeDestination, escapeTitle } from '../markdown/escape.js';
import { unsupported } from '../problems.js';
import type { InlineElementNode, InlineNode, SlateNode } from '../slate.js';
import { textOf } from '../slate.js';
import { assertSafeUrl } from '../url.js';
import { nodeScheme } from '../../brand.js';
import { anchorTitle, splitAnchorTitle } from './anchor.js';
import { CREDENTIAL_SCHEME, credentialFromLink } from './credential.js';
import { CHILDREN, emptyText, ID, safeUrl, STRING } from './input.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const linkShape = z.strictObject({ type: z.literal('a'), url: STRING, title: STRING.optional(), id: ID, children: CHILDREN });

/** A link: its own id (in the title's anchor), its url and its own title; its children are its text. */
export interface LinkNode extends ShapeFields<typeof linkShape> {
  id: string;
  children: InlineNode[];
}

const link: NodeHandler<LinkNode, typeof linkShape> = {
  standsIn: ['inline'],
  holds: 'link',
  shape: linkShape,
  input(fields, step) {
    const url = safeUrl(fields.url, `${step.path}.url`);
    step.budget.spend(url.length);
    const { title } = fields;
    const node: LinkNode = { type: 'a', id: step.claimId(fields.id, `${step.path}.id`), url, ...(title !== undefined ? { title } : {}), children: [] };
    step.out.push(node);
    step.children(fields.children, node.children as SlateNode[], step.depth, emptyText());
  },
  render: {
    inline: {
      kind: 'container',
      inline: (node, mask, ctx, w) =>
        `[${w.linkText(node.children, mask, ctx)}](${escapeDestination(node.url, ctx)} ${escapeTitle(anchorTitle(node.id, node.title), ctx)})`,
    },
  },
  text: 'descend',
  inventory(node, out) {
    out.set(node.id, { id: node.id, type: 'a', label: textOf(node) });
    return true;
  },
};

export const links: Construct<'a'> = {
  name: 'link',
  nodes: { a: link as NodeHandler },
  inlineTokens: {
    link_open(b, tokens, k, to) {
      const ctx = b.ctx;
      const t = tokens[k];
      b.flushRaw();
      const href = attr(t, 'href') ?? '';
      if (href.startsWith(ctx.anchorPrefix)) {
        throw unsupported(ctx.at(b.line), `an anchor (${href}) belongs on an element line alone on its line, or on an item line right under it`);
      }
      if (href.startsWith(`${CONNECTION_SCHEME}:`)) {
        throw unsupported(ctx.at(b.line), 'a connection line [<label>](bit-connection:<target_bit_id>) stands alone on its own line');
      }
      if (href.startsWith(CREDENTIAL_SCHEME)) {
        const declared = credentialFromLink(b, tokens, k, to);
        b.pushNode(declared.node);
        return declared.close;
      }
      assertSafeUrl(href, `line ${b.line}`);
      const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
      const resolved = ctx.resolver.resolveAnchor('a', anchor.ref, href, ctx.at(b.line));
      const node: InlineElementNode | LinkNode =
        resolved.kind === 'element'
          ? { type: resolved.type, id: resolved.id, props: resolved.props, children: [] }
          : { type: 'a', id: resolved.id, url: href, ...(anchor.title !== undefined ? { title: anchor.title } : {}), children: [] };
      b.openLink(node);
      return k;
    },
  },
  syntax: () => [
    {
      construct: 'link',
      form: `[<text>](<url> "${nodeScheme}:<id>[ <title>]")`,
      notes: 'a new link needs no anchor; http, https, mailto or relative urls only',
    },
  ],
};
