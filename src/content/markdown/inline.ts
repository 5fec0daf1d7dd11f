/**
 * markdown-it inline tokens → Slate inline nodes, in one pass with a mark counter per kind (emphasis is
 * flat in Slate: nested emphasis of the same kind becomes one mark). Text and marks are read here; links,
 * images, citations and what else a construct reads are handed to it (../constructs/).
 */
import type { Token } from 'markdown-it';
import type { InlineBuild } from '../constructs/types.js';
import { unsupported } from '../problems.js';
import type { InlineNode, TextLeaf } from '../slate.js';
import type { ParseContext } from './context.js';
import { ESCAPED, linkTextImitates, textImitation } from './imitation.js';
import { plainText } from './lines.js';

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

export function buildInlines(ctx: ParseContext, tokens: readonly Token[], from: number, to: number, firstLine: number): InlineNode[] {
  return new InlineBuilder(ctx, firstLine).build(tokens, from, to);
}

/** Builds one run of inline content; a class rather than closures, since it runs for every paragraph. */
class InlineBuilder implements InlineBuild {
  readonly root: InlineNode[] = [];
  private target: InlineNode[] = this.root;
  private link: (InlineNode & { children: InlineNode[] }) | null = null;
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
    readonly ctx: ParseContext,
    public line: number,
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

  leaf(text: string): TextLeaf {
    return leaf(text, this.mask());
  }

  pushNode(node: InlineNode): void {
    this.target.push(node);
    this.last = null;
  }

  openLink(node: InlineNode & { children: InlineNode[] }): void {
    this.pushNode(node);
    this.link = node;
    this.linkRaw = '';
    this.target = node.children;
  }

  flushRaw(): void {
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
        case 'link_open':
          // A link opened inside a link (markdown-it lets an autolink nest): its text joins the outer link.
          if (this.link) this.nested++;
          else k = ctx.constructs.inlineTokenHandler('link_open')!(this, tokens, k, to);
          break;
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
        default: {
          // Images, citations and what other constructs read; html_inline cannot occur (html is off), and a
          // token no construct owns is kept as its text.
          const handler = ctx.constructs.inlineTokenHandler(t.type);
          if (handler !== undefined) k = handler(this, tokens, k, to);
          else if (t.content) this.pushText(t.content, this.mask());
        }
      }
    }
    this.flushRaw();
    return this.root.length > 0 ? this.root : [{ text: '' }];
  }
}


