/**
 * search_references queries as users and agents type them: plain words and "quoted phrases". The query
 * is tokenized here, once for both engines, into words of letters, digits and marks; the dialects then
 * quote them for their engine. No character of the input can become engine query syntax, so no input
 * can make a search fail.
 */
import { createHash } from 'node:crypto';
import { WaymarkError } from '../../errors.js';
import type { SearchTerm } from '../../store/dialects/dialect.js';
import { LIMITS } from '../../limits/index.js';

/**
 * PostgreSQL's English stop words (tsearch_data/english.stop). PostgreSQL drops them from documents
 * and queries; SQLite indexes them. Dropping them from queries on both engines makes a query of only
 * stop words find nothing on either, instead of everything on one and nothing on the other.
 */
const STOP_WORDS = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself it its itself ' +
    'they them their theirs themselves what which who whom this that these those am is are was were be been being have has had ' +
    'having do does did doing a an the and but if or because as until while of at by for with about against between into through ' +
    'during before after above below to from up down in out on off over under again further then once here there when where why ' +
    'how all any both each few more most other some such no nor not only own same so than too very s t can will just don should now').split(' '),
);

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function words(text: string): string[] {
  return text.normalize('NFC').toLowerCase().match(WORD) ?? [];
}

/** A phrase loses its leading and trailing stop words (PostgreSQL's phraseto_tsquery ignores them anyway). */
function term(found: string[]): SearchTerm | null {
  let start = 0;
  let end = found.length;
  while (start < end && STOP_WORDS.has(found[start] as string)) start++;
  while (end > start && STOP_WORDS.has(found[end - 1] as string)) end--;
  return end > start ? { words: found.slice(start, end) } : null;
}

/**
 * The terms of a query, ANDed. `"…"` (straight or curly quotes) is a phrase; outside quotes each
 * whitespace-separated chunk is a term, and a chunk that punctuation splits into several words
 * (`e-mail`, `v2.1`) is a phrase of them. An unclosed quote is ignored. At most LIMITS.searchTerms terms are kept.
 */
export function parseSearchQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const push = (found: string[]) => {
    const t = term(found);
    if (t && !terms.some((x) => x.words.join(' ') === t.words.join(' '))) terms.push(t);
  };
  const quoted = /["“”]([^"“”]*)["“”]/g;
  let last = 0;
  const plain = (text: string) => {
    for (const chunk of text.split(/\s+/)) push(words(chunk));
  };
  for (let match = quoted.exec(query); match; match = quoted.exec(query)) {
    plain(query.slice(last, match.index));
    push(words(match[1] ?? ''));
    last = match.index + match[0].length;
  }
  plain(query.slice(last).replace(/["“”]/g, ' '));
  return terms.slice(0, LIMITS.searchTerms);
}

interface CursorState {
  score: number;
  id: string;
}

/** Ties a cursor to the search that made it, so that a cursor is never applied to another query. */
export function searchFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

export function encodeCursor(state: CursorState, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ s: state.score, i: state.id, f: fingerprint })).toString('base64url');
}

export function decodeCursor(cursor: string, fingerprint: string): CursorState {
  const refuse = (why: string) =>
    new WaymarkError('VALIDATION_ERROR', `cursor: ${why}; pass the next_cursor of the previous page of the same search, or omit it to start over.`, {
      issues: [{ path: 'cursor', message: why }],
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse('not a cursor from search_references');
  }
  if (typeof parsed !== 'object' || parsed === null) throw refuse('not a cursor from search_references');
  const { s, i, f } = parsed as { s?: unknown; i?: unknown; f?: unknown };
  if (typeof s !== 'number' || !Number.isFinite(s) || typeof i !== 'string') throw refuse('not a cursor from search_references');
  if (f !== fingerprint) throw refuse('this cursor belongs to a different query or filters');
  return { score: s, id: i };
}
