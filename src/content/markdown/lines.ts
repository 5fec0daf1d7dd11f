/**
 * Recognises our line constructs among a paragraph's inline tokens: an element line, an item line under it,
 * and a connection line (authoring-interface.md, "Body syntax"; CONTRACT.md, "Body forms"). Each is a link
 * alone on its line, optionally followed by a `(required)` mark.
 */
import type { Token } from 'markdown-it';
import { CONNECTION_SCHEME } from './connection-url.js';

export type LineKind = 'anchor' | 'connection';

/** A token attribute as a string (markdown-it types them string | number). */
export function attr(token: Token, name: string): string | null {
  const v = token.attrGet(name);
  return v === null ? null : String(v);
}

/** The kind of our link that a `link_open` token opens, or null for an ordinary link. */
export function specialLinkKind(token: Token, anchorPrefix: string): LineKind | null {
  // markdown-it puts href first; avoid the attribute search on every link.
  const first = token.attrs?.[0];
  const href = first && first[0] === 'href' ? String(first[1]) : (attr(token, 'href') ?? '');
  const c = href.charCodeAt(0);
  if (c !== anchorPrefix.charCodeAt(0) && c !== 0x62 /* b */) return null;
  if (href.startsWith(anchorPrefix)) return 'anchor';
  if (href.startsWith(`${CONNECTION_SCHEME}:`)) return 'connection';
  return null;
}

/** Plain text of inline tokens [from, to): text as decoded, marks dropped, breaks as spaces. */
export function plainText(tokens: readonly Token[], from: number, to: number): string {
  let out = '';
  for (let k = from; k < to; k++) {
    const t = tokens[k];
    if (t.type === 'text' || t.type === 'text_special' || t.type === 'code_inline') out += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += ' ';
    else if (t.type === 'image') out += plainText(t.children ?? [], 0, (t.children ?? []).length);
  }
  return out;
}

function closeOf(tokens: readonly Token[], open: number, to: number): number {
  for (let k = open + 1; k < to; k++) if (tokens[k].type === 'link_close') return k;
  return -1;
}

/** Whether tokens [from, to) are nothing but an optional `(required)` / `*(required)*` mark. */
function isRequiredMark(tokens: readonly Token[], from: number, to: number): boolean | null {
  let text = '';
  for (let k = from; k < to; k++) {
    const t = tokens[k];
    if (t.type === 'text' || t.type === 'text_special') text += t.content;
    else if (t.type !== 'em_open' && t.type !== 'em_close') return null;
  }
  const trimmed = text.trim();
  if (trimmed === '') return false;
  return trimmed === '(required)' ? true : null;
}

export interface LinkLine {
  kind: LineKind;
  href: string;
  /** The link text, plain. */
  text: string;
  required: boolean;
}

/**
 * A line [from, to) that is one of our links alone (plus a required mark), or null when the line starts
 * otherwise. `malformed` when it starts with one of our links but holds more.
 */
export function matchLinkLine(
  tokens: readonly Token[],
  from: number,
  to: number,
  anchorPrefix: string,
): LinkLine | 'malformed' | null {
  if (from >= to || tokens[from].type !== 'link_open') return null;
  const kind = specialLinkKind(tokens[from], anchorPrefix);
  if (!kind) return null;
  const close = closeOf(tokens, from, to);
  if (close < 0) return 'malformed';
  const required = isRequiredMark(tokens, close + 1, to);
  if (required === null) return 'malformed';
  return { kind, href: attr(tokens[from], 'href') ?? '', text: plainText(tokens, from + 1, close), required };
}

const ITEM_MARKER = /^(\[[ xX]\]|\([ xX]\))[ \t]+$/;

export interface ItemLineMatch {
  marker: 'checkbox' | 'radio' | 'none';
  checked: boolean;
  ref: string;
  text: string;
}

/** An item line's inline tokens: `[ ] `/`( ) `/nothing, our anchor link, an optional required mark. */
export function matchItemLine(tokens: readonly Token[], anchorPrefix: string): ItemLineMatch | null {
  let from = 0;
  let marker: ItemLineMatch['marker'] = 'none';
  let checked = false;
  if (tokens.length > 0 && tokens[0].type === 'text') {
    const m = ITEM_MARKER.exec(tokens[0].content);
    if (!m) return null;
    marker = m[1].startsWith('[') ? 'checkbox' : 'radio';
    checked = m[1][1] !== ' ';
    from = 1;
  }
  const line = matchLinkLine(tokens, from, tokens.length, anchorPrefix);
  if (line === null || line === 'malformed' || line.kind !== 'anchor') return null;
  return { marker, checked, ref: line.href.slice(anchorPrefix.length), text: line.text };
}

/** Whether a list's first item looks like an item line, so the list is an element's item list. */
export function startsItemList(children: readonly Token[], anchorPrefix: string): boolean {
  let k = 0;
  if (children.length > 0 && children[0].type === 'text' && ITEM_MARKER.test(children[0].content)) k = 1;
  return k < children.length && children[k].type === 'link_open' && specialLinkKind(children[k], anchorPrefix) === 'anchor';
}
