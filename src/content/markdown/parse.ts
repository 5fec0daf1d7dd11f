/**
 * markdown-it block tokens → Slate blocks, walked straight (no intermediate tree) with an explicit stack of
 * open containers, so nesting costs no recursion. Paragraph lines that are element lines or connection lines
 * become their void nodes; a bullet list right under an element line whose first item is an item line is
 * that element's item list.
 */
import type { Token } from 'markdown-it';
import { isElementType, ELEMENT_TYPES } from '../elements/index.js';
import { unsupported } from '../problems.js';
import type { ItemLine } from '../resolve.js';
import type {
  BlockNode,
  BlockquoteNode,
  CellAlign,
  CodeBlockNode,
  ConnectionNode,
  HeadingType,
  ListItemNode,
  ListNode,
  TableCellNode,
  TableNode,
  TableRowNode,
  TextBlock,
} from '../slate.js';
import { emptyVoidChildren } from '../slate.js';
import { connectionLabel } from '../connections.js';
import { parseConnectionUrl } from './connection-url.js';
import type { ParseContext } from './context.js';
import { buildInlines } from './inline.js';
import { parser, walkedToken } from './md.js';
import { attr, matchItemLine, matchLinkLine, specialLinkKind, startsItemList, type LinkLine } from './lines.js';
import { quote } from '../quote.js';

type Container = BlockquoteNode | ListNode | ListItemNode | TableNode | TableRowNode | { type: 'root'; children: BlockNode[] };

/** GFM task item marker at the start of a list item's first paragraph (GFM spec, 5.3). */
const TASK_MARKER = /^\[([ xX])\][ \t]+/;

/**
 * Walks the block tokens into Slate blocks. Tokens already walked are let go (replaced in the array by one
 * placeholder) as the walk goes, so on a large body the collector can take them while the Slate tree grows:
 * the whole token stream and the whole tree are never alive together (bench/memory.ts).
 */
export function parseBlocks(ctx: ParseContext, tokens: Token[]): BlockNode[] {
  const root: Container = { type: 'root', children: [] };
  const stack: Container[] = [root];
  let table: TableNode | null = null;
  let aligns: CellAlign[] = [];
  let rowLine = 1;
  const n = tokens.length;
  const walked = walkedToken();
  let released = 0;

  for (let i = 0; i < n; i++) {
    // Nothing looks back more than one token (the open token of the current block).
    while (released < i - 1) tokens[released++] = walked;
    const t = tokens[i];
    const top = stack[stack.length - 1];
    switch (t.type) {
      case 'paragraph_open': {
        const type = top.type === 'li' && t.hidden ? 'lic' : 'p';
        if (top.type === 'li' && top.children.length === 0) takeTaskMarker(top, ctx.inline(tokens[i + 1]));
        i = paragraph(ctx, tokens, i, type, top.children as BlockNode[]);
        break;
      }
      case 'heading_open': {
        const inline = ctx.inline(tokens[i + 1]);
        const block: TextBlock = { type: t.tag as HeadingType, children: buildInlines(ctx, inline, 0, inline.length, lineOf(t)) };
        (top.children as BlockNode[]).push(block);
        i += 2;
        break;
      }
      case 'blockquote_open':
        stack.push(pushBlock(top, { type: 'blockquote', children: [] }));
        break;
      case 'bullet_list_open':
      case 'ordered_list_open': {
        const start = Number(attr(t, 'start') ?? '1');
        const list: ListNode = t.type === 'bullet_list_open' ? { type: 'ul', children: [] } : { type: 'ol', ...(start !== 1 ? { start } : {}), children: [] };
        stack.push(pushBlock(top, list));
        break;
      }
      case 'list_item_open': {
        const li: ListItemNode = { type: 'li', children: [] };
        (top.children as ListItemNode[]).push(li);
        stack.push(li);
        break;
      }
      case 'blockquote_close':
      case 'bullet_list_close':
      case 'ordered_list_close':
      case 'list_item_close': {
        const closed = stack.pop()!;
        // Slate needs a child in every element: an empty quote or item holds one empty paragraph.
        if (closed.children.length === 0) {
          (closed.children as BlockNode[]).push({ type: closed.type === 'li' ? 'lic' : 'p', children: [{ text: '' }] });
        }
        break;
      }
      case 'fence':
      case 'code_block':
        (top.children as BlockNode[]).push(codeBlock(t));
        break;
      case 'hr':
        (top.children as BlockNode[]).push({ type: 'hr', children: emptyVoidChildren() });
        break;
      case 'table_open':
        table = { type: 'table', children: [] };
        aligns = [];
        stack.push(pushBlock(top, table));
        break;
      case 'table_close':
        stack.pop();
        if (table && aligns.some((a) => a !== null)) table.align = aligns;
        table = null;
        break;
      case 'tr_open': {
        const row: TableRowNode = { type: 'tr', children: [] };
        rowLine = lineOf(t);
        (top.children as TableRowNode[]).push(row);
        stack.push(row);
        break;
      }
      case 'tr_close':
        stack.pop();
        break;
      case 'th_open':
      case 'td_open': {
        const inline = ctx.inline(tokens[i + 1]);
        const line = table ? rowLine : 1;
        const cell: TableCellNode = {
          type: t.type === 'th_open' ? 'th' : 'td',
          children: [{ type: 'p', children: buildInlines(ctx, inline, 0, inline.length, line) }],
        };
        if (t.type === 'th_open') aligns.push(alignOf(t));
        (top.children as TableCellNode[]).push(cell);
        i += 2;
        break;
      }
      default:
        // thead/tbody wrappers carry nothing Slate keeps; html_block cannot occur (html is off).
        break;
    }
  }
  return root.children as BlockNode[];
}

function pushBlock<T extends BlockNode>(top: Container, node: T): T {
  (top.children as BlockNode[]).push(node);
  return node;
}

function lineOf(t: Token): number {
  return t.map ? t.map[0] + 1 : 1;
}

function alignOf(t: Token): CellAlign {
  const style = attr(t, 'style') ?? '';
  if (style.includes('left')) return 'left';
  if (style.includes('center')) return 'center';
  if (style.includes('right')) return 'right';
  return null;
}

function codeBlock(t: Token): CodeBlockNode {
  const content = t.content.endsWith('\n') ? t.content.slice(0, -1) : t.content;
  const lang = t.type === 'fence' ? parser().utils.unescapeAll(t.info).trim() : '';
  return {
    type: 'code_block',
    ...(lang !== '' ? { lang } : {}),
    children: content.split('\n').map((text) => ({ type: 'code_line', children: [{ text }] })),
  };
}

/** `- [ ] foo` / `- [x] foo`: the item is a task; the marker leaves the text. */
function takeTaskMarker(li: ListItemNode, inline: Token[]): void {
  const first = inline[0];
  if (!first || first.type !== 'text') return;
  const m = TASK_MARKER.exec(first.content);
  if (!m) return;
  li.checked = m[1] !== ' ';
  first.content = first.content.slice(m[0].length);
}

/**
 * One paragraph (tokens[i] is its open token). Returns the index of the last token consumed. Lines holding
 * an element or a connection become blocks of their own; the other lines stay paragraphs.
 */
function paragraph(ctx: ParseContext, tokens: readonly Token[], i: number, type: 'p' | 'lic', out: BlockNode[]): number {
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
      out.push(connectionLine(ctx, match, lineNo));
      return;
    }
    let items: ItemLine[] | undefined;
    if (n === lines.length - 1) {
      const list = itemList(ctx, tokens, end + 1);
      if (list) {
        items = list.items;
        end = list.end;
      }
    }
    out.push(elementLine(ctx, match, lineNo, items));
  });
  flushProse(children.length);
  return end;
}

function elementLine(ctx: ParseContext, match: LinkLine, line: number, items: ItemLine[] | undefined): BlockNode {
  const text = match.text.trim();
  const colon = text.indexOf(':');
  const type = (colon < 0 ? text : text.slice(0, colon)).trim();
  const label = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!isElementType(type)) {
    throw unsupported(ctx.at(line), `'${quote(type)}' is not an element type; an element line is [<type>: <label>](${ctx.anchorPrefix}<key>) with type one of ${ELEMENT_TYPES.join(', ')}`);
  }
  const ref = match.href.slice(ctx.anchorPrefix.length);
  if (ref === '') throw unsupported(ctx.at(line), `the anchor needs a key or an id after ${ctx.anchorPrefix}`);
  return ctx.resolver.resolveLine(Object.assign(ctx.at(line), { type, ref, ...(label !== '' ? { label } : {}), ...(items ? { items } : {}) }));
}

function connectionLine(ctx: ParseContext, match: LinkLine, line: number): ConnectionNode {
  const parsed = parseConnectionUrl(match.href);
  if (!parsed.ok) throw unsupported(ctx.at(line), `connection line: ${parsed.message}`);
  const node: ConnectionNode = {
    type: 'bit-connection',
    id: parsed.value.node,
    target_bit_id: parsed.value.target,
    label: connectionLabel(match.text),
    params: parsed.value.params,
    children: emptyVoidChildren(),
  };
  ctx.connections.push({ node, when: parsed.value.when, at: ctx.at(line) });
  return node;
}

/**
 * The item list right under an element line: a bullet list whose first item is an item line. Every item
 * must then be an item line and nothing else. Returns the items and the list's close token index.
 */
function itemList(ctx: ParseContext, tokens: readonly Token[], i: number): { items: ItemLine[]; end: number } | null {
  const open = tokens[i];
  if (!open || open.type !== 'bullet_list_open') return null;
  if (tokens[i + 1]?.type !== 'list_item_open' || tokens[i + 2]?.type !== 'paragraph_open') return null;
  if (!startsItemList(ctx.inline(tokens[i + 3]), ctx.anchorPrefix)) return null;
  const items: ItemLine[] = [];
  let k = i + 1;
  while (tokens[k].type === 'list_item_open') {
    const line = lineOf(tokens[k]);
    const shape =
      tokens[k + 1]?.type === 'paragraph_open' && tokens[k + 3]?.type === 'paragraph_close' && tokens[k + 4]?.type === 'list_item_close';
    const match = shape ? matchItemLine(ctx.inline(tokens[k + 2]), ctx.anchorPrefix) : null;
    if (!match) {
      throw unsupported(
        ctx.at(line),
        `an item line under an element is "- [ ] [<text>](${ctx.anchorPrefix}<key>)" (check-list), "- ( ) [<text>](…)" (radio-button) or "- [<name>](…)" (dropdown), alone in its item`,
      );
    }
    items.push(Object.assign(ctx.at(line), { ref: match.ref, itemText: match.text.trim(), marker: match.marker, ...(match.marker !== 'none' ? { checked: match.checked } : {}) }));
    k += 5;
  }
  return { items, end: k };
}
