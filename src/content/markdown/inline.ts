/**
 * markdown-it inline tokens → Slate inline nodes, in one pass with a mark counter per kind (emphasis is
 * flat in Slate: nested emphasis of the same kind becomes one mark). Links and images are checked for a
 * safe url and matched to their anchors; citations and credential declarations become their void nodes.
 */
import type { Token } from 'markdown-it';
import { assertSafeUrl } from '../url.js';
import { unsupported } from '../problems.js';
import type { ImageNode, InlineNode, LinkInlineNode, LinkNode, TextLeaf } from '../slate.js';
import type { CitationMeta } from './citation.js';
import type { ParseContext } from './context.js';
import { ESCAPED, linkTextImitates, textImitation } from './imitation.js';
import { CONNECTION_SCHEME } from './connection-url.js';
import { attr, plainText } from './lines.js';

const CREDENTIAL_SCHEME = 'credential:';
const CREDENTIAL_TEXT = /^credential:\s*(\S+)$/;
/** Our choice: a handle is what a secret store names (letters, digits, `_`, `.`, `-`), at most 128 chars. */
export const CREDENTIAL_HANDLE = /^[A-Za-z0-9_.-]{1,128}$/;

const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
const CODE = 8;

function leaf(text: string, mask: number): TextLeaf {
  const l: TextLeaf = { text };
  if (mask & BOLD) l.bold = true;
  if (mask & ITALIC) l.italic = true;
  if (mask & STRIKE) l.strikethrough = true;
  if (mask & CODE) l.code = true;
  return l;
}

/** Splits a link title into our anchor (`waymark-node:<ref>`) and the link's own title after one space. */
export function splitAnchorTitle(title: string | null, anchorPrefix: string): { ref: string | null; title?: string } {
  if (title === null || title === '') return { ref: null };
  if (!title.startsWith(anchorPrefix)) return { ref: null, title };
  const space = title.indexOf(' ', anchorPrefix.length);
  const ref = space < 0 ? title.slice(anchorPrefix.length) : title.slice(anchorPrefix.length, space);
  const own = space < 0 ? '' : title.slice(space + 1);
  return own === '' ? { ref } : { ref, title: own };
}

export function buildInlines(ctx: ParseContext, tokens: readonly Token[], from: number, to: number, firstLine: number): InlineNode[] {
  const root: InlineNode[] = [];
  let target = root;
  let link: LinkNode | LinkInlineNode | null = null;
  let linkRaw = '';
  let bold = 0;
  let italic = 0;
  let strike = 0;
  let line = firstLine;
  // The current run of text as written (escapes and entities as ESCAPED), for the imitation rule.
  let raw = '';
  let last: TextLeaf | null = null;
  let lastMask = -1;

  const mask = () => (bold > 0 ? BOLD : 0) | (italic > 0 ? ITALIC : 0) | (strike > 0 ? STRIKE : 0);
  const pushText = (text: string, m: number) => {
    if (last !== null && lastMask === m) last.text += text;
    else {
      last = leaf(text, m);
      lastMask = m;
      target.push(last);
    }
  };
  const pushNode = (node: InlineNode) => {
    target.push(node);
    last = null;
  };
  const flushRaw = () => {
    if (raw === '') return;
    const found = textImitation(raw);
    raw = '';
    if (found) {
      throw unsupported(
        ctx.at(line),
        `'${found}…' imitates an element or a citation in prose; write the element with an elements[] entry, or escape the bracket as \\[`,
      );
    }
  };

  for (let k = from; k < to; k++) {
    const t = tokens[k];
    switch (t.type) {
      case 'text':
        pushText(t.content, mask());
        raw += t.content;
        if (link) linkRaw += t.content;
        break;
      case 'text_special':
        // A newline written as a reference (`&#10;`) is whitespace in a paragraph, not a hard break.
        pushText(t.content === '\n' || t.content === '\r' ? ' ' : t.content, mask());
        raw += ESCAPED;
        if (link) linkRaw += ESCAPED;
        break;
      case 'softbreak':
        // A soft line break is a space in the paragraph: Slate text keeps "\n" for a hard break only.
        pushText(' ', mask());
        raw += ' ';
        if (link) linkRaw += ' ';
        line++;
        break;
      case 'hardbreak':
        pushText('\n', mask());
        raw += ' ';
        line++;
        break;
      case 'code_inline':
        flushRaw();
        pushText(t.content, mask() | CODE);
        break;
      case 'em_open':
        italic++;
        break;
      case 'em_close':
        italic--;
        break;
      case 'strong_open':
        bold++;
        break;
      case 'strong_close':
        bold--;
        break;
      case 's_open':
        strike++;
        break;
      case 's_close':
        strike--;
        break;
      case 'link_open': {
        flushRaw();
        const href = attr(t, 'href') ?? '';
        if (href.startsWith(ctx.anchorPrefix)) {
          throw unsupported(
            ctx.at(line),
            `an anchor (${href}) belongs on an element line alone on its line, or on an item line right under it`,
          );
        }
        if (href.startsWith(`${CONNECTION_SCHEME}:`)) {
          throw unsupported(ctx.at(line), 'a connection line [<label>](bit-connection:<target_bit_id>) stands alone on its own line');
        }
        if (href.startsWith(CREDENTIAL_SCHEME)) {
          k = credential(ctx, tokens, k, to, line, mask(), pushNode);
          break;
        }
        assertSafeUrl(href, `line ${line}`);
        const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
        const resolved = ctx.resolver.resolveAnchor('a', anchor.ref, href, ctx.at(line));
        const node: LinkNode | LinkInlineNode =
          resolved.type === 'link-inline'
            ? { type: 'link-inline', id: resolved.id, props: resolved.props, children: [] }
            : { type: 'a', id: resolved.id, url: href, ...(anchor.title !== undefined ? { title: anchor.title } : {}), children: [] };
        pushNode(node);
        link = node;
        linkRaw = '';
        target = node.children;
        break;
      }
      case 'link_close':
        flushRaw();
        if (linkTextImitates(linkRaw)) {
          throw unsupported(
            ctx.at(line),
            `the link text '${plainText(tokens, from, k).slice(-80)}' imitates an element line; element lines use the ${ctx.anchorPrefix} scheme and an elements[] entry`,
          );
        }
        if (link && link.children.length === 0) link.children.push({ text: '' });
        link = null;
        target = root;
        last = null;
        break;
      case 'image': {
        flushRaw();
        const src = attr(t, 'src') ?? '';
        if (src.startsWith(ctx.anchorPrefix) || src.startsWith(`${CONNECTION_SCHEME}:`) || src.startsWith(CREDENTIAL_SCHEME)) {
          throw unsupported(ctx.at(line), `an image cannot point at ${src}`);
        }
        assertSafeUrl(src, `line ${line}`);
        const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
        const resolved = ctx.resolver.resolveAnchor('img', anchor.ref, src, ctx.at(line));
        const alt = altText(t.children ?? []);
        const node: ImageNode = {
          type: 'img',
          id: resolved.id,
          url: src,
          alt,
          ...(anchor.title !== undefined ? { title: anchor.title } : {}),
          children: [leaf('', mask())],
        };
        pushNode(node);
        break;
      }
      case 'citation': {
        flushRaw();
        const meta = t.meta as unknown as CitationMeta;
        pushNode({ type: 'citation', reference_id: meta.reference_id, label: meta.label, children: [leaf('', mask())] });
        break;
      }
      default:
        // html_inline cannot occur (html is off); anything else a plugin adds is kept as its text.
        if (t.content) pushText(t.content, mask());
    }
  }
  flushRaw();
  return root.length > 0 ? root : [{ text: '' }];
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

/**
 * `[credential: <handle>](credential:<handle> "<purpose>")` (authoring-interface.md, Body syntax): the
 * handle in the text and in the destination are one value. Returns the index of the link's close token.
 */
function credential(
  ctx: ParseContext,
  tokens: readonly Token[],
  open: number,
  to: number,
  line: number,
  mask: number,
  push: (node: InlineNode) => void,
): number {
  let close = open + 1;
  while (close < to && tokens[close].type !== 'link_close') close++;
  const handle = (attr(tokens[open], 'href') ?? '').slice(CREDENTIAL_SCHEME.length);
  const text = CREDENTIAL_TEXT.exec(plainText(tokens, open + 1, close).trim());
  if (!CREDENTIAL_HANDLE.test(handle) || !text || text[1] !== handle) {
    throw unsupported(
      ctx.at(line),
      'a credential declaration is [credential: <handle>](credential:<handle> "<purpose>"), the same handle twice (letters, digits, _ . -)',
    );
  }
  push({ type: 'credential', handle, purpose: attr(tokens[open], 'title') ?? '', children: [leaf('', mask)] });
  return close;
}
