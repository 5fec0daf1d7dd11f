/**
 * Checks done on the raw text before parsing, so a hostile body costs one linear pass: its size
 * (BODY_TOO_LARGE) and its container nesting (VALIDATION_ERROR), never a deep recursion.
 */
import { WaymarkError, validationError } from '../../errors.js';
import { LIMITS } from '../limits.js';

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

