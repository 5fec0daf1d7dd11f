/**
 * Slate inline nodes → markdown. Marks become delimiters by a stack: a mark stays open while consecutive
 * pieces carry it, marks opened together open longest-run first, and a mark that ends closes the marks
 * opened after it (which reopen). Whitespace at the edge of a marked run is written outside it (a delimiter
 * next to a space does not open or close). Where the CommonMark flanking rules would still not let a
 * delimiter open or close, the letter beside it is written as a character reference, which reads back as
 * the same letter but counts as punctuation for the rules.
 */
import type { ConstructRegistry } from '../constructs/registry.js';
import type { InlineRender, InlineWriter } from '../constructs/types.js';
import type { InlineNode, SlateNode, TextLeaf } from '../slate.js';
import { isText } from '../slate.js';
import { charRef, escapeInline, escapeLineEnd, escapeLineStart, guardLinkText, type TextContext } from './escape.js';

const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
/** Delimiters, in the order marks open when their runs end together. */
const DELIMS: ReadonlyArray<[number, string]> = [
  [BOLD, '**'],
  [ITALIC, '_'],
  [STRIKE, '~~'],
];

function maskOf(leaf: TextLeaf): number {
  return (leaf.bold ? BOLD : 0) | (leaf.italic ? ITALIC : 0) | (leaf.strikethrough ? STRIKE : 0);
}

/** A piece of inline content between which marks can change. */
interface Atom {
  mask: number;
  /** Plain text (escaped when written), or null for a node written whole. */
  text: string | null;
  code: boolean;
  node: InlineNode | null;
}

const WS = /\s/;

/** How an inline node is written: its construct's inline render (a node no construct writes inline is refused). */
function inlineRender(node: SlateNode, constructs: ConstructRegistry): InlineRender {
  const render = constructs.handlerOf((node as { type: string }).type)?.render;
  if (render === undefined || typeof render === 'string' || !('inline' in render)) {
    throw new Error(`a ${String((node as { type?: unknown }).type)} node cannot be written inline`);
  }
  return render.inline as InlineRender;
}

function commonMask(nodes: readonly InlineNode[], constructs: ConstructRegistry): number {
  let mask = BOLD | ITALIC | STRIKE;
  let any = false;
  for (const n of nodes) {
    if (isText(n)) {
      if (n.text === '') continue;
      mask &= maskOf(n);
      any = true;
    } else if (inlineRender(n, constructs).kind === 'container') {
      mask &= commonMask(n.children as InlineNode[], constructs);
      any = true;
    }
  }
  return any ? mask : 0;
}

function atomsOf(nodes: readonly InlineNode[], constructs: ConstructRegistry): Atom[] {
  const atoms: Atom[] = [];
  const push = (a: Atom) => {
    const prev = atoms[atoms.length - 1];
    if (prev && a.text !== null && prev.text !== null && prev.mask === a.mask && prev.code === a.code) prev.text += a.text;
    else atoms.push(a);
  };
  for (const n of nodes) {
    if (isText(n)) {
      if (n.text === '') continue;
      const mask = maskOf(n);
      if (n.code) {
        push({ mask, text: n.text, code: true, node: null });
        continue;
      }
      // Whitespace at either edge of a leaf goes out of marks that end or start there (handled below).
      push({ mask, text: n.text, code: false, node: null });
    } else if (inlineRender(n, constructs).kind === 'container') {
      atoms.push({ mask: commonMask(n.children as InlineNode[], constructs), text: null, code: false, node: n });
    } else {
      atoms.push({ mask: maskOf((n.children as TextLeaf[])[0] ?? { text: '' }), text: null, code: false, node: n });
    }
  }
  return moveEdgeWhitespace(atoms);
}

/**
 * Whitespace at the start of a text atom takes only the marks shared with the atom before it, and at the
 * end only those shared with the atom after it, so no delimiter is written next to a space.
 */
function moveEdgeWhitespace(atoms: Atom[]): Atom[] {
  let out: Atom[] | null = null;
  for (let i = 0; i < atoms.length; i++) {
    const a = atoms[i];
    if (a.text === null || a.code || a.mask === 0 || !(WS.test(a.text[0]) || WS.test(a.text[a.text.length - 1]))) {
      out?.push(a);
      continue;
    }
    out ??= atoms.slice(0, i);
    const before = i > 0 ? atoms[i - 1].mask : 0;
    const after = i + 1 < atoms.length ? atoms[i + 1].mask : 0;
    let start = 0;
    while (start < a.text.length && WS.test(a.text[start])) start++;
    if (start === a.text.length) {
      out.push({ ...a, mask: a.mask & before & after });
      continue;
    }
    let end = a.text.length;
    while (end > start && WS.test(a.text[end - 1])) end--;
    if (start > 0) out.push({ ...a, text: a.text.slice(0, start), mask: a.mask & before });
    out.push({ ...a, text: a.text.slice(start, end) });
    if (end < a.text.length) out.push({ ...a, text: a.text.slice(end), mask: a.mask & after });
  }
  if (out === null) return atoms;
  // Merge neighbours that now carry the same marks.
  const merged: Atom[] = [];
  for (const a of out) {
    const prev = merged[merged.length - 1];
    if (prev && a.text !== null && prev.text !== null && !a.code && !prev.code && prev.mask === a.mask) {
      merged[merged.length - 1] = { ...prev, text: prev.text + a.text };
    } else merged.push(a);
  }
  return merged;
}

/** A written piece: source text, or a delimiter run. */
interface Piece {
  src: string;
  delim: string | null;
  opens: boolean;
  /** Index of the text atom it came from, for flanking fixes (only plain text can be rewritten). */
  plain: boolean;
}

/** Renders inline nodes to one markdown string (hard breaks as `\` + newline unless single-line), by the constructs' renders. */
export function renderInlines(constructs: ConstructRegistry, nodes: readonly InlineNode[], ctx: TextContext, lineStart = true): string {
  // Most paragraphs are unmarked text: no atoms, no delimiters.
  let plain = true;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i] as TextLeaf;
    if (typeof n.text !== 'string' || (n as { type?: unknown }).type !== undefined || n.bold || n.italic || n.strikethrough || n.code) {
      plain = false;
      break;
    }
  }
  if (plain) {
    let text = '';
    for (let i = 0; i < nodes.length; i++) text += (nodes[i] as TextLeaf).text;
    return assemble([{ src: escapeInline(text, ctx), delim: null, opens: false, plain: true }], ctx, lineStart);
  }
  const atoms = atomsOf(nodes, constructs);
  if (atoms.length === 0) return '';
  // The end of each mark's run starting at each atom: marks opened together open longest-run first.
  const n = atoms.length;
  const runEnd = new Int32Array(n * 3);
  for (let i = n - 1; i >= 0; i--) {
    for (let d = 0; d < 3; d++) {
      const bit = DELIMS[d][0];
      runEnd[i * 3 + d] = atoms[i].mask & bit ? (i + 1 < n && atoms[i + 1].mask & bit ? runEnd[(i + 1) * 3 + d] : i) : -1;
    }
  }
  const pieces: Piece[] = [];
  const stack: number[] = [];
  for (let i = 0; i < n; i++) {
    const atom = atoms[i];
    // Close from the first open mark this atom does not carry; marks opened after it reopen.
    let cut = -1;
    for (let k = 0; k < stack.length; k++) {
      if (!(atom.mask & stack[k])) {
        cut = k;
        break;
      }
    }
    if (cut >= 0) {
      const reopen: number[] = [];
      for (let k = cut + 1; k < stack.length; k++) if (atom.mask & stack[k]) reopen.push(stack[k]);
      while (stack.length > cut) pieces.push(delimiter(stack.pop()!, false));
      for (const bit of reopen) {
        stack.push(bit);
        pieces.push(delimiter(bit, true));
      }
    }
    // Open the marks not yet open, the one whose run ends last first.
    for (;;) {
      let best = -1;
      for (let d = 0; d < 3; d++) {
        const bit = DELIMS[d][0];
        if (atom.mask & bit && !stack.includes(bit) && (best < 0 || runEnd[i * 3 + d] > runEnd[i * 3 + best])) best = d;
      }
      if (best < 0) break;
      stack.push(DELIMS[best][0]);
      pieces.push(delimiter(DELIMS[best][0], true));
    }
    pieces.push(writeAtom(atom, ctx, constructs));
  }
  while (stack.length > 0) pieces.push(delimiter(stack.pop()!, false));
  fixFlanking(pieces);
  return assemble(pieces, ctx, lineStart);
}

function delimiter(bit: number, opens: boolean): Piece {
  return { src: '', delim: bit === BOLD ? '**' : bit === ITALIC ? '_' : '~~', opens, plain: false };
}

function writeAtom(atom: Atom, ctx: TextContext, constructs: ConstructRegistry): Piece {
  if (atom.text !== null) {
    if (atom.code) return { src: codeSpan(atom.text, ctx), delim: null, opens: false, plain: false };
    return { src: escapeInline(atom.text, ctx), delim: null, opens: false, plain: true };
  }
  return { src: writeNode(atom.node as Exclude<InlineNode, TextLeaf>, atom.mask, ctx, constructs), delim: null, opens: false, plain: false };
}

/** Strips the marks written around a link from its content, so they are not written twice. */
function withoutMask(nodes: readonly InlineNode[], mask: number): InlineNode[] {
  if (mask === 0) return nodes as InlineNode[];
  return nodes.map((n) => {
    if (!isText(n)) return n;
    const leaf: TextLeaf = { ...n };
    if (mask & BOLD) delete leaf.bold;
    if (mask & ITALIC) delete leaf.italic;
    if (mask & STRIKE) delete leaf.strikethrough;
    return leaf;
  });
}

function linkText(nodes: readonly InlineNode[], mask: number, ctx: TextContext, constructs: ConstructRegistry): string {
  const inner = renderInlines(constructs, withoutMask(nodes, mask), { ...ctx, inLink: true }, false);
  return guardLinkText(inner);
}

/** What an inline construct is handed to write a link's content, one per registry. */
const writers = new WeakMap<ConstructRegistry, InlineWriter>();

function writeNode(node: Exclude<InlineNode, TextLeaf>, mask: number, ctx: TextContext, constructs: ConstructRegistry): string {
  let writer = writers.get(constructs);
  if (writer === undefined) {
    writer = { linkText: (children, childMask, childCtx) => linkText(children, childMask, childCtx, constructs) };
    writers.set(constructs, writer);
  }
  return inlineRender(node, constructs).inline(node, mask, ctx, writer);
}

/** A code span whose fence is a backtick run the content does not hold; padded where a space would be stripped. */
export function codeSpan(text: string, ctx: TextContext): string {
  const content = ctx.inTable ? text.replace(/\|/g, '\\|') : text;
  // The shortest backtick run the content does not hold.
  let n = 1;
  if (content.includes('`')) {
    const runs = content.match(/`+/g)!.map((r) => r.length);
    while (runs.includes(n)) n++;
  }
  const fence = '`'.repeat(n);
  const pad =
    content.startsWith('`') ||
    content.endsWith('`') ||
    (content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '')
      ? ' '
      : '';
  return `${fence}${pad}${content.includes('\n') ? content.replace(/\n/g, ' ') : content}${pad}${fence}`;
}

// ---- flanking ------------------------------------------------------------------------------------------

const PUNCT = /[\p{P}\p{S}]/u;

function kind(ch: string | undefined): 'ws' | 'punct' | 'other' {
  if (ch === undefined || /\s/.test(ch)) return 'ws';
  return PUNCT.test(ch) ? 'punct' : 'other';
}

/** CommonMark's flanking rules for one delimiter run between `left` and `right`. */
function runWorks(delim: string, opens: boolean, left: string | undefined, right: string | undefined): boolean {
  const l = kind(left);
  const r = kind(right);
  const leftFlanking = r !== 'ws' && (r !== 'punct' || l !== 'other');
  const rightFlanking = l !== 'ws' && (l !== 'punct' || r !== 'other');
  if (delim === '_') return opens ? leftFlanking && (!rightFlanking || l === 'punct') : rightFlanking && (!leftFlanking || r === 'punct');
  return opens ? leftFlanking : rightFlanking;
}

function lastChar(s: string): string | undefined {
  if (s === '') return undefined;
  const cp = s.codePointAt(s.length - 2);
  return cp !== undefined && cp > 0xffff ? String.fromCodePoint(cp) : s[s.length - 1];
}

function firstChar(s: string): string | undefined {
  return s === '' ? undefined : String.fromCodePoint(s.codePointAt(0)!);
}

function groupWorks(group: readonly Piece[], left: string | undefined, right: string | undefined): boolean {
  for (let k = 0; k < group.length; k++) {
    const l = k === 0 ? left : group[k - 1].delim!.slice(-1);
    const r = k === group.length - 1 ? right : group[k + 1].delim![0];
    if (!runWorks(group[k].delim!, group[k].opens, l, r)) return false;
  }
  return true;
}

/**
 * For each group of adjacent delimiter runs, if some run could not open or close where it stands, write
 * the letter before or after the group as a character reference (`;` and `&` are punctuation).
 */
function fixFlanking(pieces: Piece[]): void {
  for (let i = 0; i < pieces.length; i++) {
    if (pieces[i].delim === null) continue;
    let j = i;
    while (j + 1 < pieces.length && pieces[j + 1].delim !== null) j++;
    const group = pieces.slice(i, j + 1);
    const before = i > 0 ? pieces[i - 1] : null;
    const after = j + 1 < pieces.length ? pieces[j + 1] : null;
    const left = before ? lastChar(before.src) : undefined;
    const right = after ? firstChar(after.src) : undefined;
    if (!groupWorks(group, left, right)) {
      const canFixLeft = before !== null && before.plain && kind(left) === 'other';
      const canFixRight = after !== null && after.plain && kind(right) === 'other';
      const options: Array<[boolean, boolean]> = [
        [canFixLeft, false],
        [false, canFixRight],
        [canFixLeft, canFixRight],
      ];
      for (const [fl, fr] of options) {
        if (!fl && !fr) continue;
        if (groupWorks(group, fl ? ';' : left, fr ? '&' : right)) {
          if (fl) before!.src = before!.src.slice(0, before!.src.length - left!.length) + charRef(left!);
          if (fr) after!.src = charRef(right!) + after!.src.slice(right!.length);
          break;
        }
      }
    }
    i = j;
  }
}

/**
 * Joins pieces. Plain text gets the line rules where it starts a line (the block's start when `lineStart`,
 * or after a hard break) and where it ends one; a newline in text is a hard break, `\` + newline. Where a
 * hard break cannot be written (a single-line context, or the very end, where a backslash is literal) the
 * newline is written as a space, which is what a reader sees there anyway.
 */
function assemble(pieces: readonly Piece[], ctx: TextContext, lineStart: boolean): string {
  let out = '';
  let atStart = lineStart;
  let lastContent = -1;
  for (let k = pieces.length - 1; k >= 0; k--) {
    if (pieces[k].delim === null && pieces[k].src !== '') {
      lastContent = k;
      break;
    }
  }
  for (let k = 0; k < pieces.length; k++) {
    const p = pieces[k];
    if (!p.plain) {
      const src = p.delim ?? p.src;
      out += src;
      if (src !== '') atStart = false;
      continue;
    }
    let src = p.src;
    if (src.includes('\n')) {
      if (ctx.singleLine) src = src.replace(/\n/g, ' ');
      else if (k === lastContent) src = src.replace(/\n+$/, (breaks) => ' '.repeat(breaks.length));
    }
    const segments = src.includes('\n') ? src.split('\n') : [src];
    for (let n = 0; n < segments.length; n++) {
      let seg = segments[n];
      if (atStart) seg = escapeLineStart(seg);
      const breakFollows = n < segments.length - 1;
      if (breakFollows || k === lastContent) seg = escapeLineEnd(seg);
      out += seg;
      if (seg !== '') atStart = false;
      if (breakFollows) {
        out += '\\\n';
        atStart = true;
      }
    }
  }
  return out;
}
