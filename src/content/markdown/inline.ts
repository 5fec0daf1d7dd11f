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
import { quote } from '../quote.js';

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
  return new InlineBuilder(ctx, firstLine).build(tokens, from, to);
}

/** Builds one run of inline content; a class rather than closures, since it runs for every paragraph. */
class InlineBuilder {
  readonly root: InlineNode[] = [];
  private target: InlineNode[] = this.root;
  private link: LinkNode | LinkInlineNode | null = null;
  private linkRaw = '';
  private bold = 0;
  private italic = 0;
  private strike = 0;
  /** The current run of text as written (escapes and entities as ESCAPED), for the imitation rule. */
  private raw = '';
  private last: TextLeaf | null = null;
  private lastMask = -1;
  /** Links opened inside a link (markdown-it lets an autolink nest): their text joins the outer link. */
  private nested = 0;

  constructor(
    private readonly ctx: ParseContext,
    private line: number,
  ) {}

  private mask(): number {
    return (this.bold > 0 ? BOLD : 0) | (this.italic > 0 ? ITALIC : 0) | (this.strike > 0 ? STRIKE : 0);
  }

  private pushText(text: string, m: number): void {
    // markdown-it leaves an empty text token where it consumed emphasis delimiters.
    if (text === '') return;
    if (this.last !== null && this.lastMask === m) this.last.text += text;
    else {
      this.last = leaf(text, m);
      this.lastMask = m;
      this.target.push(this.last);
    }
  }

  private pushNode(node: InlineNode): void {
    this.target.push(node);
    this.last = null;
  }

  private flushRaw(): void {
    if (this.raw === '') return;
    const found = textImitation(this.raw);
    this.raw = '';
    if (found) {
      throw unsupported(
        this.ctx.at(this.line),
        `'${found}…' imitates an element or a citation in prose; write the element with an elements[] entry, or escape the bracket as \\[`,
      );
    }
  }

  build(tokens: readonly Token[], from: number, to: number): InlineNode[] {
    const ctx = this.ctx;
    for (let k = from; k < to; k++) {
      const t = tokens[k];
      switch (t.type) {
        case 'text':
          this.pushText(t.content, this.mask());
          this.raw += t.content;
          if (this.link) this.linkRaw += t.content;
          break;
        case 'text_special':
          // A newline written as a reference (`&#10;`) is whitespace in a paragraph, not a hard break.
          this.pushText(t.content === '\n' || t.content === '\r' ? ' ' : t.content, this.mask());
          this.raw += ESCAPED;
          if (this.link) this.linkRaw += ESCAPED;
          break;
        case 'softbreak':
          // A soft line break is a space in the paragraph: Slate text keeps "\n" for a hard break only.
          this.pushText(' ', this.mask());
          this.raw += ' ';
          if (this.link) this.linkRaw += ' ';
          this.line++;
          break;
        case 'hardbreak':
          this.pushText('\n', this.mask());
          this.raw += ' ';
          this.line++;
          break;
        case 'code_inline':
          this.flushRaw();
          this.pushText(t.content, this.mask() | CODE);
          break;
        case 'em_open':
          this.italic++;
          break;
        case 'em_close':
          this.italic--;
          break;
        case 'strong_open':
          this.bold++;
          break;
        case 'strong_close':
          this.bold--;
          break;
        case 's_open':
          this.strike++;
          break;
        case 's_close':
          this.strike--;
          break;
        case 'link_open': {
          if (this.link) {
            this.nested++;
            break;
          }
          this.flushRaw();
          const href = attr(t, 'href') ?? '';
          if (href.startsWith(ctx.anchorPrefix)) {
            throw unsupported(
              ctx.at(this.line),
              `an anchor (${href}) belongs on an element line alone on its line, or on an item line right under it`,
            );
          }
          if (href.startsWith(`${CONNECTION_SCHEME}:`)) {
            throw unsupported(ctx.at(this.line), 'a connection line [<label>](bit-connection:<target_bit_id>) stands alone on its own line');
          }
          if (href.startsWith(CREDENTIAL_SCHEME)) {
            const declared = credential(ctx, tokens, k, to, this.line, this.mask());
            this.pushNode(declared.node);
            k = declared.close;
            break;
          }
          assertSafeUrl(href, `line ${this.line}`);
          const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
          const resolved = ctx.resolver.resolveAnchor('a', anchor.ref, href, ctx.at(this.line));
          const node: LinkNode | LinkInlineNode =
            resolved.type === 'link-inline'
              ? { type: 'link-inline', id: resolved.id, props: resolved.props, children: [] }
              : { type: 'a', id: resolved.id, url: href, ...(anchor.title !== undefined ? { title: anchor.title } : {}), children: [] };
          this.pushNode(node);
          this.link = node;
          this.linkRaw = '';
          this.target = node.children;
          break;
        }
        case 'link_close':
          if (this.nested > 0) {
            this.nested--;
            break;
          }
          this.flushRaw();
          if (linkTextImitates(this.linkRaw)) {
            throw unsupported(
              ctx.at(this.line),
              `the link text '${plainText(tokens, from, k).slice(-80)}' imitates an element line; element lines use the ${ctx.anchorPrefix} scheme and an elements[] entry`,
            );
          }
          if (this.link && this.link.children.length === 0) this.link.children.push({ text: '' });
          this.link = null;
          this.target = this.root;
          this.last = null;
          break;
        case 'image': {
          this.flushRaw();
          const src = attr(t, 'src') ?? '';
          if (src.startsWith(ctx.anchorPrefix) || src.startsWith(`${CONNECTION_SCHEME}:`) || src.startsWith(CREDENTIAL_SCHEME)) {
            throw unsupported(ctx.at(this.line), `an image cannot point at ${quote(src)}`);
          }
          assertSafeUrl(src, `line ${this.line}`);
          const anchor = splitAnchorTitle(attr(t, 'title'), ctx.anchorPrefix);
          const resolved = ctx.resolver.resolveAnchor('img', anchor.ref, src, ctx.at(this.line));
          const alt = altText(t.children ?? []);
          const node: ImageNode = {
            type: 'img',
            id: resolved.id,
            url: src,
            alt,
            ...(anchor.title !== undefined ? { title: anchor.title } : {}),
            children: [leaf('', this.mask())],
          };
          this.pushNode(node);
          break;
        }
        case 'citation': {
          this.flushRaw();
          const meta = t.meta as unknown as CitationMeta;
          this.pushNode({ type: 'citation', reference_id: meta.reference_id, label: meta.label, children: [leaf('', this.mask())] });
          break;
        }
        default:
          // html_inline cannot occur (html is off); anything else a plugin adds is kept as its text.
          if (t.content) this.pushText(t.content, this.mask());
      }
    }
    this.flushRaw();
      return this.root.length > 0 ? this.root : [{ text: '' }];
    }
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
 * handle in the text and in the destination are one value. Returns the node and the link's close token index.
 */
function credential(
  ctx: ParseContext,
  tokens: readonly Token[],
  open: number,
  to: number,
  line: number,
  mask: number,
): { node: InlineNode; close: number } {
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
  return { node: { type: 'credential', handle, purpose: attr(tokens[open], 'title') ?? '', children: [leaf('', mask)] }, close };
}
