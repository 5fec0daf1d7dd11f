/**
 * A search hit's snippet, cut the same way on both engines (issue 16, finding 4). The engine only marks
 * every matched word of the reference's snippet window (FTS5 highlight(), ts_headline with HighlightAll):
 * its own fragment pickers, FTS5 snippet() and ts_headline's cover search, cost the square of a word's
 * hits in the text (29 s for one search of a 1 MB reference). Picking the fragment here is one pass.
 */
import { LIMITS } from '../../limits/index.js';

/** How the engine marks a matched word; replaced by `**` in the snippet (a reference's text never holds them, see searchTexts). */
export const MARK_START = '\u0001';
export const MARK_END = '\u0002';


interface Word {
  start: number;
  end: number;
  marked: boolean;
}

// The marks are control characters on purpose: no reference text holds them (searchTexts replaces them).
// eslint-disable-next-line no-control-regex
const TOKEN = /[\u0001\u0002]|[\p{L}\p{N}\p{M}]+/gu;
const WORD_AHEAD = /[\p{L}\p{N}\p{M}]/u;

/**
 * The first run of `size` words that holds the most marked words (the start of the text when none does), as
 * the text shows it, marks as `**…**`, with `…` where the text goes on before or after. One pass over the
 * text at most, and it stops at the first run whose every word is marked, as none can hold more.
 */
export function snippetFromMarked(marked: string, size: number = LIMITS.snippetWords): string {
  const words: Word[] = [];
  let open = false;
  let best = 0;
  let bestCount = -1;
  let count = 0;
  for (const match of marked.matchAll(TOKEN)) {
    const token = match[0];
    if (token === MARK_START) open = true;
    else if (token === MARK_END) open = false;
    else {
      words.push({ start: match.index, end: match.index + token.length, marked: open });
      if (open) count++;
      const first = words.length - size;
      if (first > 0 && words[first - 1]?.marked) count--;
      if (first >= 0 && count > bestCount) {
        bestCount = count;
        best = first;
        if (count === size) break;
      }
    }
  }
  if (words.length === 0) return plain(marked);
  // A text of fewer words than a run: all of it.
  if (bestCount < 0) best = 0;
  const last = Math.min(words.length, best + size) - 1;
  const from = words[best] as Word;
  const to = words[last] as Word;
  const atStart = best === 0;
  const atEnd = !WORD_AHEAD.test(marked.slice(to.end));
  // A mark may span several words (FTS5 marks a phrase whole): reopen one cut at the start, close one cut at the end.
  let text = marked.slice(atStart ? 0 : from.start, atEnd ? marked.length : to.end);
  if (!atStart && from.marked) text = MARK_START + text;
  if (!atEnd && to.marked) text += MARK_END;
  return `${atStart ? '' : '…'}${plain(text)}${atEnd ? '' : '…'}`;
}

function plain(text: string): string {
  return text.replaceAll(MARK_START, '**').replaceAll(MARK_END, '**');
}
