import { describe, expect, it } from 'vitest';
import { LIMITS } from '../limits/index.js';
import { searchTexts } from './search-text.js';

describe('searchTexts', () => {
  it('keeps a text within the bounds whole, as its own snippet window', () => {
    expect(searchTexts('A café dessert.\nSecond line.')).toEqual({ search_text: 'A café dessert.\nSecond line.', snippet_text: 'A café dessert.\nSecond line.' });
  });

  it('cuts the indexed text and the snippet window between words, never inside one', () => {
    const word = 'abcdefghi '; // 10 characters
    const text = `${word.repeat(LIMITS.searchableReferenceChars / 10 + 50)}`;
    const { search_text, snippet_text } = searchTexts(`xx${text}`);
    expect(search_text.length).toBeLessThanOrEqual(LIMITS.searchableReferenceChars);
    expect(search_text.endsWith('abcdefghi')).toBe(true);
    // 'xx' shifts every word by 2: the bound falls in a word (at its 9th character), which is left out whole.
    expect(search_text.length).toBe(LIMITS.searchableReferenceChars - 9);
    expect(snippet_text.length).toBeLessThanOrEqual(LIMITS.snippetWindowChars);
    expect(snippet_text.endsWith('abcdefghi')).toBe(true);
    expect(search_text.startsWith(snippet_text)).toBe(true);
  });

  it('cuts a text without whitespace at the bound, not inside a surrogate pair', () => {
    expect(searchTexts('x'.repeat(LIMITS.searchableReferenceChars + 10)).search_text).toHaveLength(LIMITS.searchableReferenceChars);
    const emoji = `x${'🙂'.repeat(LIMITS.snippetWindowChars)}`;
    const window = searchTexts(emoji).snippet_text;
    expect(window).toHaveLength(LIMITS.snippetWindowChars - 1);
    expect(window.endsWith('🙂')).toBe(true);
  });

  it('replaces the characters the engines mark matches with (snippet.ts)', () => {
    expect(searchTexts('a\u0001b\u0002c').search_text).toBe('a b c');
  });
});
