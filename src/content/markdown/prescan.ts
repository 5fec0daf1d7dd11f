/**
 * Checks done on the raw text before parsing, so a hostile body costs one linear pass: its size and the
 * least its lines must become (BODY_TOO_LARGE), and its container nesting (VALIDATION_ERROR), never a deep recursion.
 */
import { WaymarkError, validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';

const SPACE = 0x20;
const TAB = 0x09;
const GT = 0x3e;

export function assertMarkdownSize(markdown: string): void {
  // A UTF-16 length over the limit can still be under it in bytes only if… it cannot: UTF-8 never uses
  // fewer bytes than UTF-16 code units, so the cheap length check is exact on the refusing side.
  if (markdown.length > LIMITS.bodyBytes || Buffer.byteLength(markdown, 'utf8') > LIMITS.bodyBytes) {
    throw new WaymarkError('BODY_TOO_LARGE', `bit_body is over ${LIMITS.bodyBytes} bytes; split the content over several bits`, {
      max_bytes: LIMITS.bodyBytes,
    });
  }
}

function isListMarkerAt(src: string, pos: number, end: number): number {
  const ch = src.charCodeAt(pos);
  let p = pos;
  if (ch === 0x2d || ch === 0x2b || ch === 0x2a) p = pos + 1;
  else {
    while (p < end && p - pos < 9 && src.charCodeAt(p) >= 0x30 && src.charCodeAt(p) <= 0x39) p++;
    if (p === pos) return 0;
    const d = src.charCodeAt(p);
    if (d !== 0x2e && d !== 0x29) return 0;
    p++;
  }
  if (p < end && src.charCodeAt(p) !== SPACE && src.charCodeAt(p) !== TAB) return 0;
  return p - pos;
}

/**
 * An upper estimate of the container depth of each line: one per `>` or list marker at its start, plus one
 * per two columns of indentation (nested list items may carry a single marker and rely on indentation).
 */
export function assertMarkdownDepth(markdown: string): void {
  const max = LIMITS.bodyDepth;
  const n = markdown.length;
  let pos = 0;
  while (pos < n) {
    let end = markdown.indexOf('\n', pos);
    if (end < 0) end = n;
    let depth = 0;
    let columns = 0;
    let p = pos;
    for (;;) {
      while (p < end) {
        const c = markdown.charCodeAt(p);
        if (c === SPACE) columns++;
        else if (c === TAB) columns += 4;
        else break;
        p++;
      }
      if (p >= end) break;
      if (markdown.charCodeAt(p) === GT) {
        depth++;
        p++;
        if (p < end && markdown.charCodeAt(p) === SPACE) p++;
        continue;
      }
      const width = isListMarkerAt(markdown, p, end);
      if (width === 0) break;
      depth++;
      p += width;
      if (p < end && markdown.charCodeAt(p) === SPACE) p++;
    }
    if (depth + (columns >> 1) > max) {
      const line = countLines(markdown, pos);
      throw validationError(
        [{ path: 'bit_body', message: `line ${line}: blocks are nested more than ${max} deep (quotes and lists inside each other); flatten the structure` }],
        undefined,
        { max_depth: max, line },
      );
    }
    pos = end + 1;
    if (end === n) break;
  }
}

function countLines(src: string, upTo: number): number {
  let line = 1;
  for (let i = src.indexOf('\n'); i >= 0 && i < upTo; i = src.indexOf('\n', i + 1)) line++;
  return line;
}


// hostile-convert (issue 16, finding 6): what a line must become, at least, in the stored body. A heading is at
// least `{"type":"h1","children":[{"text":""}]},` and a bullet item `{"type":"li","children":[{"type":"lic",
// "children":[{"text":"x"}]}]},`; both can interrupt a paragraph (CommonMark 4.2, 5.2), so wherever such a line
// stands outside a code fence it starts a node of its own. Inside a fence every line is a code line,
// `{"type":"code_line","children":[{"text":""}]},`.
const HEADING_FLOOR_BYTES = 40;
const BULLET_ITEM_FLOOR_BYTES = 60;
/** `{"type":"hr","children":[{"text":""}]},` */
const THEMATIC_BREAK_FLOOR_BYTES = 39;
/** The least block a line after a blank one starts: a quote's `{"type":"blockquote","children":[]},` (its paragraph uncounted). */
const LEAST_BLOCK_BYTES = 36;
const CODE_LINE_FLOOR_BYTES = 44;
const HASH = 0x23;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/**
 * Refuses, before anything is built, a body whose lines alone make it larger than LIMITS.bodyBytes once
 * converted: two bytes of `#\n` are 40 bytes of stored JSON, so 300 KB of them pass the size check yet cost
 * markdown-it and the converter far more memory than their size. Before any block rule runs, markdown-it also
 * keeps five numbers for every line of the body (StateBlock): 7.9 MB of `a\n\n` took 340 MB before the output
 * budget could refuse it (issue 24, finding 10), so every line that surely starts a node is counted here.
 */
export function assertMarkdownOutputFloor(markdown: string): void {
  // The densest line is an empty one in a fence (44 stored bytes a character): a shorter text cannot reach the limit.
  if (markdown.length * CODE_LINE_FLOOR_BYTES <= LIMITS.bodyBytes) return;
  if (markdownOutputFloor(markdown, LIMITS.bodyBytes) > LIMITS.bodyBytes) {
    throw new WaymarkError('BODY_TOO_LARGE', `bit_body would be over ${LIMITS.bodyBytes} bytes once converted (each paragraph, heading, list item and code line is a node of its own); split the content over several bits`, {
      max_bytes: LIMITS.bodyBytes,
    });
  }
}

/**
 * The least stored JSON the lines of `markdown` become (counted until it passes `stop`). A lower bound: outside
 * fences only lines with at most three leading spaces and no container prefix are counted (an indented line may
 * be a paragraph's); inside a fence (opened by ``` or ~~~ under any prefix, closed as CommonMark closes it)
 * every line is one.
 */
export function markdownOutputFloor(markdown: string, stop = Number.POSITIVE_INFINITY): number {
  const n = markdown.length;
  let floor = 0;
  let fence = 0; // the fence character while inside one, else 0
  let fenceLength = 0;
  let previous: LineStart = 'blank';
  let pos = 0;
  while (pos < n && floor <= stop) {
    let end = markdown.indexOf('\n', pos);
    if (end < 0) end = n;
    let p = pos;
    while (p < end && p - pos < 4 && markdown.charCodeAt(p) === SPACE) p++;
    const indent = p - pos;
    // Fences are found under any container prefix (`> `, `- `), so code in quotes and lists is never counted.
    let q = p;
    for (;;) {
      while (q < end && (markdown.charCodeAt(q) === SPACE || markdown.charCodeAt(q) === TAB)) q++;
      if (q < end && markdown.charCodeAt(q) === GT) q++;
      else {
        const width = isListMarkerAt(markdown, q, end);
        if (width === 0) break;
        q += width;
      }
    }
    const c = markdown.charCodeAt(q);
    let run = q;
    if (c === BACKTICK || c === TILDE) while (run < end && markdown.charCodeAt(run) === c) run++;
    const length = run - q;
    let start: LineStart = 'other';
    if (fence === 0 && length >= 3) {
      fence = c;
      fenceLength = length;
    } else if (fence !== 0 && c === fence && length >= fenceLength && markdown.slice(run, end).trim() === '') fence = 0;
    else if (fence !== 0) floor += CODE_LINE_FLOOR_BYTES;
    else if (isBlank(markdown, pos, end)) start = 'blank';
    else if (indent < 4) {
      const line = lineFloor(markdown, p, end, previous);
      start = line.start;
      floor += line.bytes;
    }
    previous = start;
    pos = end + 1;
  }
  return floor;
}

/** How a line starts, as the next line's floor depends on it. */
type LineStart = 'blank' | 'ordered' | 'other';

function isBlank(src: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = src.charCodeAt(i);
    if (c !== SPACE && c !== TAB && c !== 0x0d) return false;
  }
  return true;
}

/**
 * The stored bytes a line at `p` (after at most three spaces) starts, at least. A heading and a bullet item
 * can interrupt a paragraph (CommonMark 4.2, 5.2), and so can a thematic break of `*` or `_` (4.1; one of `-`
 * may underline a heading instead) and an ordered item numbered 1 (5.2): wherever such a line stands outside a
 * fence it starts a node of its own, and so does an ordered item right after another. After a blank line any
 * other line starts a block (a paragraph, a quote, a table, a list) of LEAST_BLOCK_BYTES at least, but for a
 * link reference definition, which starts with `[` and becomes nothing (so does every line starting with `[`
 * here, element and connection lines included: a lower bound may leave them out).
 */
function lineFloor(src: string, p: number, end: number, previous: LineStart): { bytes: number; start: LineStart } {
  const c = src.charCodeAt(p);
  if (c === HASH) {
    let h = p;
    while (h < end && h - p < 7 && src.charCodeAt(h) === HASH) h++;
    const level = h - p;
    const next = src.charCodeAt(h);
    if (level <= 6 && (h === end || next === SPACE || next === TAB || next === 0x0d)) return { bytes: HEADING_FLOOR_BYTES, start: 'other' };
  }
  if (c === 0x2d || c === 0x2b || c === 0x2a || c === 0x5f) {
    if (c !== 0x2d && isThematicBreak(src, p, end)) return { bytes: THEMATIC_BREAK_FLOOR_BYTES, start: 'other' };
    // `- x`: a bullet item with content (an empty one cannot interrupt a paragraph, and `-` alone may underline one).
    const next = src.charCodeAt(p + 1);
    if (c !== 0x5f && p + 1 < end && (next === SPACE || next === TAB) && src.slice(p + 2, end).trim() !== '' && !isThematicBreak(src, p, end)) {
      return { bytes: BULLET_ITEM_FLOOR_BYTES, start: 'other' };
    }
  }
  const ordered = orderedItemStart(src, p, end);
  if (ordered !== null && (ordered === 1 || previous === 'ordered' || previous === 'blank')) return { bytes: BULLET_ITEM_FLOOR_BYTES, start: 'ordered' };
  if (previous === 'blank' && c !== 0x5b /* [ */) return { bytes: LEAST_BLOCK_BYTES, start: 'other' };
  return { bytes: 0, start: 'other' };
}

/** `1. x` / `7) x` with content: the item's number, else null. */
function orderedItemStart(src: string, p: number, end: number): number | null {
  const width = isListMarkerAt(src, p, end);
  const c = src.charCodeAt(p);
  if (width < 2 || c < 0x30 || c > 0x39) return null;
  if (src.slice(p + width, end).trim() === '') return null;
  return Number(src.slice(p, p + width - 1));
}

/** `* * *`, `- - -`: a thematic break, not a list item (CommonMark 4.1 takes precedence). */
function isThematicBreak(src: string, p: number, end: number): boolean {
  const c = src.charCodeAt(p);
  let count = 0;
  for (let i = p; i < end; i++) {
    const d = src.charCodeAt(i);
    if (d === c) count++;
    else if (d !== SPACE && d !== TAB && d !== 0x0d) return false;
  }
  return count >= 3;
}
