import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, parseSearchQuery } from './query.js';

const words = (query: string) => parseSearchQuery(query).map((t) => t.words.join(' '));

describe('parseSearchQuery', () => {
  it('reads plain words and quoted phrases, lowercased', () => {
    expect(words('Expense "Receipt Rules" approval')).toEqual(['expense', 'receipt rules', 'approval']);
    expect(words('“curly quotes” work')).toEqual(['curly quotes', 'work']);
  });

  it('turns a punctuated chunk into a phrase and drops every operator character', () => {
    expect(words('e-mail v2.1')).toEqual(['e mail', 'v2 1']);
    // and, or and a are stop words; "NEAR(a" is a phrase whose trailing stop word goes.
    expect(words('title:x AND (y OR z*) NEAR(a b) -c ^d')).toEqual(['title x', 'y', 'z', 'near', 'b', 'c', 'd']);
    expect(words(`'; DROP TABLE t; --`)).toEqual(['drop', 'table']);
  });

  it('drops stop words, phrase ends trimmed, and an unclosed quote', () => {
    expect(words('the of and')).toEqual([]);
    expect(words('"the process of approval" is')).toEqual(['process of approval']);
    expect(words('"unclosed phrase')).toEqual(['unclosed', 'phrase']);
    expect(words('   ')).toEqual([]);
  });

  it('keeps letters of any script and removes repeats', () => {
    expect(words('Über café 中文 über')).toEqual(['über', 'café', '中文']);
    expect(parseSearchQuery(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });
});

describe('search cursors', () => {
  it('round-trip a score exactly and refuse one of another search', () => {
    const cursor = encodeCursor({ score: 0.1 + 0.2, id: 'abc' }, 'f1');
    expect(decodeCursor(cursor, 'f1')).toEqual({ score: 0.30000000000000004, id: 'abc' });
    expect(() => decodeCursor(cursor, 'f2')).toThrow(/different query/);
    expect(() => decodeCursor('%%%', 'f1')).toThrow(/cursor/);
  });
});
