import { describe, expect, it } from 'vitest';
import { JsonShapeScan, type JsonShapeLimits } from './scan.js';

const WIDE: JsonShapeLimits = { containers: 1e9, values: 1e9, depth: 1e9, members: 1e9, keys: 1e9, shortStrings: 1e9 };

/** The scan of `text`, fed in pieces of `piece` bytes (a body arrives in chunks cut anywhere). */
function scan(text: string, limits: JsonShapeLimits = WIDE, piece = Infinity) {
  const bytes = Buffer.from(text);
  const s = new JsonShapeScan(limits);
  for (let i = 0; i < bytes.length; i += Math.min(piece, bytes.length)) {
    const excess = s.feed(bytes.subarray(i, i + piece));
    if (excess) return { excess, containers: s.containers, values: s.values };
  }
  return { excess: null, containers: s.containers, values: s.values };
}

describe('JsonShapeScan', () => {
  it('counts containers and values (keys included) the way JSON.parse would build them', () => {
    const text = '{"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": []}';
    for (const piece of [Infinity, 1, 2, 3, 7]) expect(scan(text, WIDE, piece)).toEqual({ excess: null, containers: 4, values: 10 });
  });

  it('does not count brackets, quotes or backslashes inside strings, whatever the chunk boundaries', () => {
    const text = JSON.stringify({ k: '{[\\"]}\\\\', 'x"y': '\\', z: '\u00e9\u{1F600}' });
    expect(JSON.parse(text)).toBeTruthy();
    for (const piece of [Infinity, 1, 2, 5]) expect(scan(text, WIDE, piece)).toEqual({ excess: null, containers: 1, values: 6 });
  });

  it('counts the members of each object on its own, not colons in strings nor array items', () => {
    const limits = { ...WIDE, members: 2 };
    for (const piece of [Infinity, 1, 3]) {
      expect(scan('{"a:b": 1, "c": {"d": 1, "e": 2}, "f": [1, 2, 3, 4]}', { ...limits, members: 3 }, piece).excess).toBeNull();
      expect(scan('{"a": {"b": 1, "c": 2}, "d": 1}', limits, piece).excess).toBeNull();
      expect(scan('{"a": 1, "b": {"c": 1}, "d": 1}', limits, piece).excess).toEqual({ limit: 'members', max: 2 });
      expect(scan('[{"a": 1, "b": 2, "c": 3}]', limits, piece).excess).toEqual({ limit: 'members', max: 2 });
    }
  });

  it('stops at the first bound exceeded: containers, values, depth', () => {
    expect(scan('[{},{},{}]', { ...WIDE, containers: 3 }).excess).toEqual({ limit: 'containers', max: 3 });
    expect(scan('[{},{}]', { ...WIDE, containers: 3 }).excess).toBeNull();
    expect(scan('["a",1,"b"]', { ...WIDE, values: 2 }).excess).toEqual({ limit: 'values', max: 2 });
    expect(scan('{"a":1}', { ...WIDE, values: 2 })).toMatchObject({ excess: null, values: 2 });
    expect(scan('[[[]]]', { ...WIDE, depth: 2 }).excess).toEqual({ limit: 'depth', max: 2 });
    expect(scan('[[],[],[]]', { ...WIDE, depth: 2 }).excess).toBeNull();
  });

  it('is linear on the inputs a quadratic string scan would choke on', () => {
    // A long run of escaped quotes, and a string with no end.
    const escapes = `"${'\\"'.repeat(2_000_000)}"`;
    expect(scan(escapes)).toEqual({ excess: null, containers: 0, values: 1 });
    expect(scan(`["${'\\\\'.repeat(1_000_000)}`, WIDE, 65536)).toEqual({ excess: null, containers: 1, values: 1 });
  });

  it('counts distinct keys, whatever the chunks, and not string values nor keys met again', () => {
    const limits = { ...WIDE, keys: 3 };
    for (const piece of [Infinity, 1, 2, 5]) {
      expect(scan('[{"a": "x", "b": "y"}, {"b": 1, "a": 2, "c": "d"}, {"a": {"c": "e"}}]', limits, piece).excess).toBeNull();
      expect(scan('[{"a": 1}, {"b": 1}, {"c": 1}, {"d": 1}]', limits, piece).excess).toEqual({ limit: 'keys', max: 3 });
      // Whitespace before the colon still makes a key.
      expect(scan('{"key one" : 1, "key two"\n: 2, "key three"\t:{}, "key four":3}', limits, piece).excess).toEqual({ limit: 'keys', max: 3 });
      // One key written escaped and not is one for JSON.parse and two here: counted more, never less.
      expect(scan('[{"a": 1}, {"\\u0061": 1}, {"b": 1}, {"c": 1}]', limits, piece).excess).toEqual({ limit: 'keys', max: 3 });
    }
  });

  it('counts distinct short string values (up to 10 characters, escapes and multi-byte characters as one)', () => {
    const limits = { ...WIDE, shortStrings: 2 };
    for (const piece of [Infinity, 1, 3]) {
      // Keys, repeated values and values over 10 characters do not count.
      expect(scan('{"a": "x", "b": "x", "c": "y", "d": "longer than ten", "x": 1, "y": 2}', limits, piece).excess).toBeNull();
      expect(scan('["x", "y", "z"]', limits, piece).excess).toEqual({ limit: 'shortStrings', max: 2 });
      // Ten characters written in 30 bytes, or as \u escapes, are still short.
      expect(scan(`["${'\u00e9'.repeat(10)}", "${'\u20ac'.repeat(10)}", "${'é'.repeat(9)}"]`, limits, piece).excess).toEqual({ limit: 'shortStrings', max: 2 });
      expect(scan(`["${'\\u0041'.repeat(10)}", "${'\\u0042'.repeat(10)}", "\\n\\t\\"\\u00e9"]`, limits, piece).excess).toEqual({ limit: 'shortStrings', max: 2 });
      expect(scan(`["${'\\u0041'.repeat(11)}", "${'\\u0042'.repeat(11)}", "${'\\u0043'.repeat(11)}"]`, limits, piece).excess).toBeNull();
    }
  });
});

describe('JsonShapeScan, its spans for a parse in pieces', () => {
  /** The spans of `text` at `piece`, the same whatever the chunks it arrives in. */
  function spans(text: string, piece: number) {
    const bytes = Buffer.from(text);
    const results = [Infinity, 1, 2, 5].map((chunk) => {
      const s = new JsonShapeScan(WIDE, piece);
      for (let i = 0; i < bytes.length; i += Math.min(chunk, bytes.length)) s.feed(bytes.subarray(i, i + chunk));
      return { spans: s.spans, closed: s.closed };
    });
    for (const result of results) expect(result).toEqual(results[0]);
    return results[0];
  }

  it('cuts a container at its own commas, each at least a piece after its start or the previous cut', () => {
    expect(spans('[10,20,30,40]', 3).spans).toEqual([{ start: 0, end: 13, splits: [3, 6, 9] }]);
    expect(spans('[10,20,30,40]', 4).spans).toEqual([{ start: 0, end: 13, splits: [6] }]);
    // Not at a comma inside a string or a nested container; the nested array, a piece long, is noted uncut.
    expect(spans('{"a":"x,y","b":[1,2]}', 5).spans).toEqual([
      { start: 15, end: 20, splits: [] },
      { start: 0, end: 21, splits: [10] },
    ]);
    // Offsets are in bytes: a multi-byte character before a cut moves it.
    expect(spans('["é",1,2]', 6).spans).toEqual([{ start: 0, end: 10, splits: [7] }]);
  });

  it('notes no container shorter than a piece and uncut, nor one left open, nor anything without a piece size', () => {
    expect(spans('[[1],[2,3],{"a":1}]', 8).spans).toEqual([{ start: 0, end: 19, splits: [10] }]);
    expect(spans('[1,2,3,4,5', 3).spans).toEqual([]);
    expect(spans('[1,2,3,[4,5,6,7,8]]', Infinity).spans).toEqual([]);
  });

  it('says whether the text closed every string and container it opened', () => {
    for (const text of ['[1]', ' {"a":[{}]} ', '"x"', '1', '', '[]]']) expect(spans(text, 4).closed).toBe(true);
    for (const text of ['[1', '{"a":[]', '"abc', '["]"', '[[1]]]["']) expect(spans(text, 4).closed).toBe(false);
  });
});
