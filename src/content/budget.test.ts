import { describe, expect, it } from 'vitest';
import { assertTopLevelFloor, jsonSizeAtLeast, textLongerThan } from './budget.js';
import { LIMITS } from './limits.js';
import { slateToBody } from './slate-input.js';

describe('jsonSizeAtLeast', () => {
  it('never says more than the JSON text is, and passes the stop on a large value', () => {
    const values: unknown[] = [[], [1], ['ab', 3, null], { a: [1, 2, { b: 'cd' }] }, [[[]], {}], Array.from({ length: 50 }, (_, i) => ({ type: 'p', children: [{ text: `t${i}` }] }))];
    for (const value of values) {
      const size = jsonSizeAtLeast(value, 1e9);
      expect(size).toBeLessThanOrEqual(JSON.stringify(value).length);
      expect(size).toBeGreaterThan(0);
    }
    const many = Array.from({ length: 300_000 }, () => ({ type: 'hr' }));
    const size = jsonSizeAtLeast(many, 128 * 1024);
    expect(size).toBeGreaterThan(128 * 1024);
    expect(size).toBeLessThanOrEqual(JSON.stringify(many).length);
  });

  it('stops at a long array without looking into its items', () => {
    // Items that would throw if read: the array's length alone passes the stop.
    const items = new Proxy(new Array<unknown>(200_000).fill(0), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error('read an item');
        return Reflect.get(target, key) as unknown;
      },
    });
    expect(jsonSizeAtLeast(items, 100_000)).toBeGreaterThan(100_000);
  });
});

describe('textLongerThan', () => {
  it('takes a string as the text itself and estimates a parsed value as its JSON', () => {
    expect(textLongerThan('x'.repeat(10), 10)).toBe(false);
    expect(textLongerThan('x'.repeat(11), 10)).toBe(true);
    // As JSON, ["xxxxxxxx"] is 12 characters.
    expect(textLongerThan(['x'.repeat(8)], 12)).toBe(false);
    expect(textLongerThan(['x'.repeat(9)], 12)).toBe(true);
  });
});

describe('the top-level floor of a Slate body', () => {
  const unreadable = (length: number) =>
    new Proxy(new Array<unknown>(length).fill(null), {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) throw new Error('read a node');
        return Reflect.get(target, key) as unknown;
      },
    });

  it('refuses more top-level nodes than the limit can store, before reading one', () => {
    const most = Math.floor(LIMITS.bodyBytes / 38);
    expect(() => slateToBody(unreadable(most + 1))).toThrow(expect.objectContaining({ code: 'BODY_TOO_LARGE' }) as Error);
    expect(() => assertTopLevelFloor(most)).not.toThrow();
  });

  it('is a true floor: the least node takes 38 bytes with its comma once stored', () => {
    const body = slateToBody([{ type: 'p', children: [{ text: '' }] }, { type: 'hr' }]);
    for (const node of body.children) expect(JSON.stringify(node).length + 1).toBeGreaterThanOrEqual(38);
  });
});
