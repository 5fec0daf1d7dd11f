import { describe, expect, it } from 'vitest';
import { assertTopLevelFloor, jsonSizeAtLeast, textLongerThan } from './budget.js';
import { LIMITS } from '../limits/index.js';
import { markdownToBody } from './markdown/convert.js';
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

describe('the block budget of a markdown body', () => {
  it('charges a table’s rows as they are made, not once the whole table is', () => {
    // One block of 200,000 rows, about 18 MB stored: the table rule makes every row in one call.
    const markdown = `| a |\n| - |\n${'| b |\n'.repeat(200_000)}`;
    let details: Record<string, unknown> | undefined;
    try {
      markdownToBody(markdown);
    } catch (error) {
      details = (error as { code?: string; details?: Record<string, unknown> }).code === 'BODY_TOO_LARGE' ? (error as { details: Record<string, unknown> }).details : undefined;
    }
    // Refused within 64 tokens of the limit (a cell is the most a token adds), not after all of them.
    expect(details?.at_least_bytes).toBeLessThanOrEqual(LIMITS.bodyBytes + 64 * 63);
  });
});
