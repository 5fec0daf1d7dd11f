/** Image: `img`, an inline void with its own id (in the title's anchor), url, alt and optional title. */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { nodeScheme } from '../../brand.js';
import { attr } from '../markdown/lines.js';
import { CONNECTION_SCHEME } from '../markdown/connection-url.js';
import { escapeDestination, escapeInline, escapeTitle } from '../markdown/escape.js';
import { unsupported } from '../problems.js';
import { quote } from '../../quote.js';
import type { VoidChildren } from '../slate.js';
import { assertSafeUrl } from '../url.js';
import { anchorTitle, splitAnchorTitle } from './anchor.js';
import { CREDENTIAL_SCHEME } from './credential.js';
import { ID, safeUrl, STRING, VOID_CHILDREN, voidChildren } from './input.js';
import type { Construct, NodeHandler, ShapeFields } from './types.js';

const imageShape = z.strictObject({ type: z.literal('img'), url: STRING, title: STRING.optional(), id: ID, alt: STRING.default(''), children: VOID_CHILDREN });

/** An image, an inline void: its own id (in the title's anchor), url, alt and own title. */
export interface ImageNode extends ShapeFields<typeof imageShape> {
  id: string;
  children: VoidChildren;
}

/** An image's alt: its label as plain text (soft breaks as spaces, a hard break as a newline). */
function altText(children: readonly Token[]): string {
  let out = '';
  for (const c of children) {
    if (c.type === 'text' || c.type === 'text_special' || c.type === 'code_inline') out += c.content;
    else if (c.type === 'softbreak') out += ' ';
    else if (c.type === 'hardbreak') out += '\n';
    else if (c.type === 'image') out += altText(c.children ?? []);
  }
  return out;
}

const image: NodeHandler<ImageNode, typeof imageShape> = {
  standsIn: ['inline', 'link'],
  shape: imageShape,
  input(fields, step) {
    const url = safeUrl(fields.url, `${step.path}.url`);
    step.budget.spend(url.length);
    const { title } = fields;
    step.out.push({
      type: 'img',
      id: step.claimId(fields.id, `${step.path}.id`),
      url,
      alt: fields.alt,
      ...(title !== undefined ? { title } : {}),
      children: voidChildren(fields.children, step.path),
    });
  },
  render: {
    inline: {
      kind: 'void',
      inline(node, _mask, ctx) {
        const alt = escapeInline(node.alt, { ...ctx, inLink: true }).replace(/\n/g, '&#xA;');
        return `![${alt}](${escapeDestination(node.url, ctx)} ${escapeTitle(anchorTitle(node.id, node.title), ctx)})`;
      },
    },
  },
  text: 'descend',
  inventory(node, out) {
    out.set(node.id, { id: node.id, type: 'img', label: node.alt });
    return true;
  },
};

export const images: Construct<'img'> = {
  name: 'image',
  nodes: { img: image as NodeHandler },
  inlineTokens: {
    image(b, tokens, k) {
      const ctx = b.ctx;
      const t = tokens[k];
      b.flushRaw();
      const src = attr(t, 'src') ?? '';
      if (src.startsWith(ctx.anchorPrefix) || src.startsWith(`${CONNECTION_SCHEME}:`) || src.startsWith(CREDENTIAL_SCHEME)) {
        throw unsupported(ctx.at(b.line), `an image cannot point at ${quote(src)}`);
      }
      assertSafeUrl(src, `line ${b.line}`);
      const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
      const resolved = ctx.resolver.resolveAnchor('img', anchor.ref, src, ctx.at(b.line));
      b.pushNode({
        type: 'img',
        id: resolved.id,
        url: src,
        alt: altText(t.children ?? []),
        ...(anchor.title !== undefined ? { title: anchor.title } : {}),
        children: [b.leaf('')],
      });
      return k;
    },
  },
  syntax: () => [{ construct: 'image', form: `![<alt>](<url> "${nodeScheme}:<id>[ <title>]")` }],
};
