/**
 * Paragraph: `p`, and `lic`, the content of a tight list item (Plate's name). A paragraph line that is an
 * element line or a connection line becomes that construct's node; the lines around it stay paragraphs.
 */
import type { Token } from 'markdown-it';
import { z } from 'zod';
import { unsupported } from '../problems.js';
import type { ParseContext } from '../markdown/context.js';
import { buildInlines } from '../markdown/inline.js';
import { matchLinkLine, specialLinkKind } from '../markdown/lines.js';
import type { BlockNode, HeadingType, InlineNode } from '../slate.js';
import { connectionFromLine } from './bit-connection.js';
import { elementFromLine, itemListAfter } from './element-line.js';
import { CHILDREN, emptyText } from './input.js';
import { takeTaskMarker } from './list.js';
import { BLOCK_TEXT } from './text-contexts.js';
import type { Construct, InputStep, NodeHandler, ShapeFields } from './types.js';

/** The Slate shape of a block of inline content: a paragraph, a tight item's text, a heading (./heading.ts). */
export function textBlockShape<T extends string>(types: readonly [T, ...T[]]) {
  return z.strictObject({ type: z.enum(types), children: CHILDREN });
}

const paragraphShape = textBlockShape(['p', 'lic']);

/** Slate input of a text block (paragraph, tight item text, heading): its type, its inline children (an empty text at least). */
export function inputTextBlock(fields: { type: TextBlock['type']; children?: unknown }, step: InputStep): void {
  const node: TextBlock = { type: fields.type, children: [] };
  step.out.push(node);
  step.children(fields.children, node.children, step.depth, emptyText());
}

/** A block whose children are inline content. `lic` is the content of a tight list item (Plate's name). */
export interface TextBlock {
  type: ShapeFields<typeof paragraphShape>['type'] | HeadingType;
  children: InlineNode[];
}

function textBlock(standsIn: NodeHandler['standsIn']): NodeHandler<TextBlock, typeof paragraphShape> {
  return {
    standsIn,
    holds: 'inline',
    shape: paragraphShape,
    input: inputTextBlock,
    render: {
      block: {
        block(node, task, w) {
          // After a task marker the text is at a line start too: the marker's spaces would swallow its leading ones.
          const text = w.inlines(node.children, BLOCK_TEXT, true);
          const content = task.taskMarker !== undefined ? task.taskMarker + text : text;
          if (!content.includes('\n')) w.line(content);
          else for (const l of content.split('\n')) w.line(l);
        },
      },
    },
    text: 'line',
  };
}

export const paragraph: Construct<'p' | 'lic'> = {
  name: 'paragraph',
  nodes: {
    p: textBlock(['block', 'li', 'cell']) as NodeHandler,
    lic: textBlock(['li']) as NodeHandler,
  },
  blockTokens: {
    paragraph_open(walk, t, i) {
      const top = walk.top();
      const inList = top.type === 'li';
      const type = inList && t.hidden ? 'lic' : 'p';
      if (inList && top.children.length === 0) takeTaskMarker(top, walk.ctx.inline(walk.tokens[i + 1]));
      return paragraphLines(walk.ctx, walk.tokens, i, type, top.children as BlockNode[]);
    },
  },
  syntax: () => [
    {
      construct: 'prose',
      form: 'CommonMark with GFM tables, strikethrough and task lists; raw HTML stays literal text',
      notes: 'text imitating an element ([<type>: …] or a link whose text starts with "<type>:") is refused; escape the bracket as \\[',
    },
  ],
};

function lineOf(t: Token): number {
  return t.map ? t.map[0] + 1 : 1;
}

/**
 * One paragraph (tokens[i] is its open token). Returns the index of the last token consumed. Lines holding
 * an element or a connection become blocks of their own; the other lines stay paragraphs.
 */
function paragraphLines(ctx: ParseContext, tokens: readonly Token[], i: number, type: 'p' | 'lic', out: BlockNode[]): number {
  const children = ctx.inline(tokens[i + 1]);
  const firstLine = lineOf(tokens[i]);
  let end = i + 2;
  let special = false;
  for (let k = 0; k < children.length && !special; k++) {
    special = children[k].type === 'link_open' && specialLinkKind(children[k], ctx.anchorPrefix) !== null;
  }
  if (!special) {
    out.push({ type, children: buildInlines(ctx, children, 0, children.length, firstLine) });
    return end;
  }
  // Split at line breaks outside links.
  const lines: Array<[number, number]> = [];
  let start = 0;
  let inLink = false;
  for (let k = 0; k < children.length; k++) {
    const c = children[k];
    if (c.type === 'link_open') inLink = true;
    else if (c.type === 'link_close') inLink = false;
    else if (!inLink && (c.type === 'softbreak' || c.type === 'hardbreak')) {
      lines.push([start, k]);
      start = k + 1;
    }
  }
  lines.push([start, children.length]);

  let proseFrom = -1;
  let proseLine = firstLine;
  const flushProse = (to: number) => {
    if (proseFrom < 0) return;
    // A run of nothing but line breaks (`\\` + newline before an element line) holds no prose: an empty
    // paragraph here would print as nothing and be gone when get_bit's body is written back.
    const blank = children.slice(proseFrom, to).every((c) => c.type === 'softbreak' || c.type === 'hardbreak' || (c.type === 'text' && c.content === ''));
    if (blank) {
      proseFrom = -1;
      return;
    }
    out.push({ type, children: buildInlines(ctx, children, proseFrom, to, proseLine) });
    proseFrom = -1;
  };
  lines.forEach(([from, to], n) => {
    const lineNo = firstLine + n;
    const match = matchLinkLine(children, from, to, ctx.anchorPrefix);
    if (match === null) {
      if (proseFrom < 0) {
        proseFrom = from;
        proseLine = lineNo;
      }
      return;
    }
    // The break token before this line ends the prose run.
    flushProse(from - 1);
    if (match === 'malformed') {
      throw unsupported(ctx.at(lineNo), 'an element or connection line holds only its link, optionally followed by (required)');
    }
    if (match.kind === 'connection') {
      out.push(connectionFromLine(ctx, match, lineNo));
      return;
    }
    // Only the paragraph's last line can have an item list right under it.
    const list = n === lines.length - 1 ? itemListAfter(ctx, tokens, end + 1) : null;
    if (list) end = list.end;
    out.push(elementFromLine(ctx, match, lineNo, list?.items));
  });
  flushProse(children.length);
  return end;
}
