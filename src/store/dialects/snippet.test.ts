import { describe, expect, it } from 'vitest';
import { MARK_END, MARK_START, snippetFromMarked } from './snippet.js';

const m = (word: string) => `${MARK_START}${word}${MARK_END}`;
const words = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `w${from + i}`).join(' ');

describe('snippetFromMarked', () => {
  it('shows a short text whole, the matched words marked', () => {
    expect(snippetFromMarked(`Toast with ${m('marmalade')} and butter, then coffee.`)).toBe('Toast with **marmalade** and butter, then coffee.');
  });

  it('cuts the run of words that holds the most matches, with … where the text goes on', () => {
    const text = `${words(0, 50)} ${m('one')} ${words(50, 100)} ${m('two')} w100 ${m('three')} ${words(101, 200)}.`;
    // The first such run: here it ends on the last match.
    expect(snippetFromMarked(text, 5)).toBe('…w98 w99 **two** w100 **three**…');
  });

  it('keeps a mark that spans several words whole, reopened or closed where the run cuts it', () => {
    const text = `${words(0, 10)} ${MARK_START}expense claim${MARK_END} ${words(10, 20)}`;
    expect(snippetFromMarked(text, 3)).toBe('…w9 **expense claim**…');
    expect(snippetFromMarked(`${MARK_START}a b c d${MARK_END} e f`, 2)).toBe('**a b**…');
    expect(snippetFromMarked(`x y ${MARK_START}a b c d${MARK_END}`, 2)).toBe('…**a b**…');
  });

  it('starts at the beginning when nothing in the window matched (a match in the title only)', () => {
    expect(snippetFromMarked(`${words(0, 40)}.`, 4)).toBe('w0 w1 w2 w3…');
    expect(snippetFromMarked('')).toBe('');
    expect(snippetFromMarked('— …')).toBe('— …');
  });

  it('takes the first run of a window of one word repeated, every one marked', () => {
    expect(snippetFromMarked(`${m('aa')} `.repeat(5461))).toBe(`${'**aa** '.repeat(31)}**aa**…`);
  });
});
