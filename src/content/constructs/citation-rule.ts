/**
 * Inline rule for a reference citation, `[[ref:<reference_id>|<label>]]` (authoring-interface.md, Body
 * syntax). The label runs to the first unescaped `]]` on the same line; a backslash escapes ASCII punctuation
 * in it, as everywhere in markdown.
 */
import type { StateInline } from 'markdown-it';
import { UUID_PATTERN } from '../ids.js';
import { TARGET_NAME_CHAR, TARGET_NAME_MAX, TARGET_NAMES } from '../targets.js';

export interface CitationMeta {
  reference_id: string;
  label: string;
}

const OPEN = '[[ref:';
const UUID_LENGTH = 36;
const ASCII_PUNCT = /[!-/:-@[-`{-~]/;

export function citationRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== 0x5b || !src.startsWith(OPEN, start)) return false;
  const idStart = start + OPEN.length;
  let id: string;
  let pos: number;
  if ((state.env as Record<symbol, unknown>)[TARGET_NAMES] === true) {
    // A folder's file names the reference by its file (../targets.ts); the citation handler resolves it.
    pos = idStart;
    while (pos < state.posMax && pos - idStart < TARGET_NAME_MAX && TARGET_NAME_CHAR.test(src[pos] as string)) pos++;
    id = src.slice(idStart, pos);
    if (id === '') return false;
  } else {
    id = src.slice(idStart, idStart + UUID_LENGTH);
    if (!UUID_PATTERN.test(id)) return false;
    pos = idStart + UUID_LENGTH;
  }
  let label = '';
  if (src.charCodeAt(pos) === 0x7c /* | */) {
    pos++;
    for (;;) {
      if (pos >= state.posMax) return false;
      const ch = src[pos];
      if (ch === '\n') return false;
      if (ch === '\\' && pos + 1 < state.posMax && ASCII_PUNCT.test(src[pos + 1])) {
        label += src[pos + 1];
        pos += 2;
        continue;
      }
      if (ch === ']' && src[pos + 1] === ']') break;
      label += ch;
      pos++;
    }
  } else if (!(src[pos] === ']' && src[pos + 1] === ']')) return false;
  if (pos + 2 > state.posMax) return false;
  if (!silent) {
    const token = state.push('citation', '', 0);
    token.meta = { reference_id: id, label } satisfies CitationMeta;
  }
  state.pos = pos + 2;
  return true;
}
