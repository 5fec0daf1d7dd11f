import { describe, expect, it } from 'vitest';
import { isSafeUrl, urlScheme } from './url.js';

describe('url safety', () => {
  it.each([
    ['https://example.com', true],
    ['HTTP://example.com', true],
    ['mailto:a@example.com', true],
    ['/path', true],
    ['#frag', true],
    ['', true],
    ['javascript:alert(1)', false],
    [' javascript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['\u0001javascript:alert(1)', false],
    ['data:text/html,x', false],
    ['tel:123', false],
  ])('%j → %s', (url, safe) => {
    expect(isSafeUrl(url)).toBe(safe);
  });

  it('requires an absolute url where asked (element url props)', () => {
    expect(isSafeUrl('/path', { absolute: true })).toBe(false);
    expect(isSafeUrl('https://example.com', { absolute: true })).toBe(true);
  });

  it('reads the scheme as a browser would', () => {
    expect(urlScheme('Java\nScript:x')).toBe('javascript');
    expect(urlScheme('foo/bar:baz')).toBe(null);
  });
});
