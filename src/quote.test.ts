import { describe, expect, it } from 'vitest';
import { LIMITS } from './limits/index.js';
import { quote } from './quote.js';

describe('quote', () => {
  it('keeps short input as it is', () => {
    expect(quote('abc')).toBe('abc');
    expect(quote('x'.repeat(LIMITS.quotedInput))).toBe('x'.repeat(LIMITS.quotedInput));
  });

  it('cuts long input to the bound, ending with an ellipsis', () => {
    const quoted = quote('x'.repeat(20_000_000));
    expect(quoted).toBe(`${'x'.repeat(LIMITS.quotedInput - 1)}…`);
    expect(quote('abcdef', 4)).toBe('abc…');
  });

  it('never leaves half of a surrogate pair', () => {
    expect(quote('ab😀cdef', 4)).toBe('ab…');
    expect(quote('a😀cdef', 4)).toBe('a😀…');
  });
});
