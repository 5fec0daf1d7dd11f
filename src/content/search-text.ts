/**
 * What search keeps of a reference's text (issue 16, finding 4). Pure text, so that the services (which write
 * references) and migration 007 (which bounds the ones stored before it) cut it the same way.
 */
import { LIMITS } from '../limits/index.js';

/**
 * `text` cut to at most `max` characters at a word boundary: a word the cut would split is left out whole, so
 * that search never indexes half a word (a query for it would then find a reference that does not hold it).
 * A text without whitespace before `max` is cut at `max`, never inside a surrogate pair.
 */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  // The first character left out, then back to the nearest whitespace before it.
  let cut = max;
  while (cut > 0 && !/\s/.test(text.charAt(cut))) cut--;
  if (cut === 0) cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, cut);
}

/**
 * What search keeps of a reference's text (issue 16, finding 4): at most LIMITS.searchableReferenceChars are
 * indexed, so that no reference can overflow PostgreSQL's tsvector (1 MB) or make indexing and ranking cost
 * more than that bound; the snippet is cut from the first LIMITS.snippetWindowChars of it, a prefix kept in
 * its own column, so that a snippet's cost does not grow with the reference. The reference's content is
 * stored and returned whole.
 */
export function searchTexts(text: string): { search_text: string; snippet_text: string } {
  // U+0001 and U+0002 are how the engines mark matched words for the snippet (store/dialects/snippet.ts).
  const searchText = cutAtWord(text.replaceAll('\u0001', ' ').replaceAll('\u0002', ' '), LIMITS.searchableReferenceChars);
  return { search_text: searchText, snippet_text: cutAtWord(searchText, LIMITS.snippetWindowChars) };
}
