import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseTurns } from '../../../test/parse-turns.js';
import { parseJsonPieces } from './pieces.js';
import { JsonShapeScan, type JsonShapeLimits } from './scan.js';

const WIDE: JsonShapeLimits = { containers: 1e9, values: 1e9, depth: 1e9, members: 1e9, keys: 1e9, shortStrings: 1e9 };

/** `text` parsed in pieces of `piece` bytes, fed to the scan in chunks of `chunk`: its value, or its error. */
async function pieces(text: string | Buffer, piece: number, chunk = Infinity): Promise<{ value: unknown } | { error: unknown }> {
  const bytes = Buffer.from(text);
  const scan = new JsonShapeScan(WIDE, piece);
  for (let i = 0; i < bytes.length; i += Math.min(chunk, bytes.length)) scan.feed(bytes.subarray(i, i + chunk));
  try {
    return { value: await parseJsonPieces(bytes, scan) };
  } catch (error) {
    return { error };
  }
}

/**
 * A value written out with all that JSON.parse decides and toEqual does not look at: key order, own `__proto__`
 * keys, plain data properties on plain prototypes, -0.
 */
function dump(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const array = Array.isArray(value);
  const plain = Object.getPrototypeOf(value) === (array ? Array.prototype : Object.prototype);
  const keys = Reflect.ownKeys(value).filter((key) => !(array && key === 'length'));
  const members = keys.map((key) => {
    const { value: member, writable, enumerable, configurable } = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    const data = writable === true && enumerable === true && configurable === true;
    return `${JSON.stringify(key)}${data ? '' : ' (not a plain data property)'}:${dump(member)}`;
  });
  if (!plain) members.unshift('(not a plain prototype)');
  return array ? `[${members.join(',')}]` : `{${members.join(',')}}`;
}

/**
 * JSON.parse's verdict on `text` (as readJsonBody decodes it, a lone surrogate or a broken UTF-8 sequence made
 * U+FFFD), and the same from the parse in pieces at each piece size and chunk size.
 */
async function expectSameAsJsonParse(text: string | Buffer, sizes: number[] = [1, 2, 5, 16, 64]): Promise<void> {
  let expected: string;
  try {
    expected = dump(JSON.parse(Buffer.from(text).toString('utf8')));
  } catch {
    expected = 'SyntaxError';
  }
  for (const piece of sizes) {
    for (const chunk of [Infinity, 7]) {
      const got = await pieces(text, piece, chunk);
      if ('error' in got) expect(got.error, `${text} at ${piece}`).toBeInstanceOf(SyntaxError);
      expect('error' in got ? 'SyntaxError' : dump(got.value), `${text} at ${piece}`).toBe(expected);
    }
  }
}

/** A seeded generator (mulberry32): the same texts on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WHITESPACE = ['', '', '', ' ', '\n', ' \t\r\n '];
const STRING_PARTS = ['a', 'key', ',', ':', '[', ']', '{', '}', 'é', '€', '😀', '\\"', '\\\\', '\\n', '\\/', '\\u0041', '\\u00e9', '\\ud83d\\ude00', '\\u002c'];
const KEYS = ['"a"', '"b"', '"__proto__"', '"0"', '"10"', '"1"', '""', '"x y"', '"\\u0061"', '"é😀"', '"constructor"'];
const SCALARS = ['0', '-0', '1', '-12.5e3', '1E400', '0.1', '123456789012345678901234567890', 'true', 'false', 'null'];

/** A random JSON text: nested arrays and objects, duplicate and `__proto__` keys, escapes, whitespace everywhere. */
function randomJson(random: () => number, depth = 0): string {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const ws = () => pick(WHITESPACE);
  const string = () => {
    let text = '';
    const parts = random() < 0.05 ? 200 : Math.floor(random() * 4);
    for (let i = 0; i < parts; i++) text += pick(STRING_PARTS);
    return `"${text}"`;
  };
  const roll = random();
  if (depth > 4 || roll < 0.3) return random() < 0.5 ? string() : pick(SCALARS);
  const members = random() < 0.15 ? 1 : Math.floor(random() * 8);
  const items: string[] = [];
  if (roll < 0.65) {
    for (let i = 0; i < members; i++) items.push(`${ws()}${randomJson(random, depth + 1)}${ws()}`);
    return `[${items.join(',')}${items.length === 0 ? ws() : ''}]`;
  }
  for (let i = 0; i < members; i++) items.push(`${ws()}${random() < 0.7 ? pick(KEYS) : string()}${ws()}:${ws()}${randomJson(random, depth + 1)}${ws()}`);
  return `{${items.join(',')}${items.length === 0 ? ws() : ''}}`;
}

describe('parseJsonPieces', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives JSON.parse’s value for texts of every kind, cut at every place', async () => {
    const random = seeded(16);
    for (let i = 0; i < 300; i++) await expectSameAsJsonParse(`${pick(WHITESPACE)}${randomJson(random)}${pick(WHITESPACE)}`);
    function pick(list: string[]) {
      return list[Math.floor(random() * list.length)];
    }
  });

  it('gives JSON.parse’s value for the texts it is for, and for roots that are no container', async () => {
    const cases = [
      `[${'[[[1,2,3]]],'.repeat(20)}[[["x"]]]]`,
      `[[[[[${'"é€😀",'.repeat(30)}0]]]]]`,
      `{"__proto__":[1,2,3,4,5,6],"a":{"__proto__":{"b":1,"c":2}},"__proto__":{"x":[1,2,3]},"a":7,"z":8}`,
      `{"b":1,"a":2,"10":3,"1":4,"b":5,"0":[6,7,8,9,10,11],"a":12}`,
      `["${'x'.repeat(500)}","${'\\u00e9\\"\\\\'.repeat(100)}",1,["${'y'.repeat(300)}"]]`,
      `${' '.repeat(50)}\n[ 1 ,\n 2 ,\t 3 , { "a" : [ ] , "b" : { } } ]\r\n`,
      '"a string alone"',
      ' 12345.5e-3 ',
      'null',
      '[]',
      '{}',
    ];
    for (const text of cases) await expectSameAsJsonParse(text);
  });

  it('refuses what JSON.parse refuses, wherever the pieces are cut', async () => {
    const cases = [
      '[1,2,3,4,5,]',
      '[1,2,3,4,5 ,  ]',
      '{"a":1,"b":2,"c":3,}',
      '[1,2,,3,4,5]',
      '[1,2, ,3,4,5]',
      '[,1,2,3,4,5]',
      '[ ,1,2,3,4,5]',
      '[1,2 3,4,5]',
      '{"a":1 "b":2,"c":3}',
      '{"a":1,"b" 2,"c":3}',
      '{"a":1,"b":2,"c"}',
      '[1,2,3,4,5] x',
      '[1,2,3,4,5][6,7,8]',
      '{"a":[1,2,3]}{"b":[4,5,6]}',
      'x[1,2,3,4,5]',
      '[1,2,3,4,5',
      '{"a":[1,2,3,4,5}',
      '[1,2,3,4,5}',
      '{"a":1,"b":2]',
      '[1,2,3,[4,5,6]]]',
      '{[1,2,3,4,5]:1}',
      '{"a":1,[1,2,3,4,5]:1}',
      '{"a":1,{"b":2,"c":3}:1}',
      '["abc,def",1,2,"unterminated]',
      '[1,2,3,4,5,"\\x"]',
      '[1,2,3,4,5,01]',
      '[1,2,3,4,5,tru]',
      '',
      '   ',
      ',',
      ']',
    ];
    for (const text of cases) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      await expectSameAsJsonParse(text);
    }
  });

  it('agrees with JSON.parse on texts broken at random places, UTF-8 sequences included', async () => {
    const random = seeded(61);
    const breaks = [...Buffer.from(',  ]}[{:"x1\\'), 0xe9, 0x80, 0xf0];
    for (let i = 0; i < 600; i++) {
      let bytes = Buffer.from(randomJson(random));
      for (let k = 0; k < 1 + Math.floor(random() * 2); k++) {
        const at = Math.floor(random() * (bytes.length + 1));
        const roll = random();
        const insert = roll < 0.4 ? [] : roll < 0.8 ? [breaks[Math.floor(random() * breaks.length)]] : [...bytes.subarray(at, at + 1)];
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(roll < 0.4 ? at + 1 : at)]);
      }
      await expectSameAsJsonParse(bytes, [1, 3, 8]);
    }
  });

  it('refuses a text left open without parsing it: its open containers are not cut', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    for (const text of [`[${'1,'.repeat(1000)}1`, `{"a":"${'x'.repeat(1000)}`, `[[${'1,'.repeat(1000)}1]`]) {
      const got = await pieces(text, 16);
      expect(got).toMatchObject({ error: new SyntaxError('Unexpected end of JSON input') });
    }
    expect(parse).not.toHaveBeenCalled();
  });

  it('cannot be made to take a string of the body for one of its placeholders', async () => {
    const text = `["\\u0000wm:x:0",${'"\\u0000wm:x:0",'.repeat(5)}[1,2,3,4,5,6],{"\\u0000wm:x:0":[7,8,9,10]}]`;
    await expectSameAsJsonParse(text);
  });

  it('parses a large text over many turns of the event loop, none given much more than a piece', async () => {
    const piece = 4096;
    const text = `{"jsonrpc":"2.0","id":1,"params":{"arguments":{"bit_body":[${'{"type":"hr"},'.repeat(19_999)}{"type":"hr"}]}}}`;
    const { result: got, turns, longest } = await parseTurns(() => pieces(text, piece));
    expect(got).toEqual({ value: JSON.parse(text) });
    // 280 KB in pieces of 4 KB, at most two a turn.
    expect(turns).toBeGreaterThan(text.length / piece / 2);
    expect(longest).toBeLessThanOrEqual(2 * piece);
  });

  it('gives no JSON.parse much more than a piece when containers nest each after a piece of members', async () => {
    // Each level's one comma before the next level is under a piece from its start: cut at commas alone, no
    // container would be cut and the whole text would be one parse. Each is a piece long, so each is parsed alone.
    const piece = 64;
    let text = '"end"';
    for (let depth = 0; depth < 40; depth++) text = depth % 2 ? `[${'1,'.repeat(piece / 2 - 2)}${text}]` : `{"k":"${'x'.repeat(piece - 12)}","n":${text}}`;
    const parse = vi.spyOn(JSON, 'parse');
    const got = await pieces(text, piece);
    const longest = Math.max(...parse.mock.calls.map(([parsed]) => parsed.length));
    expect(got).toEqual({ value: JSON.parse(text) });
    expect(longest).toBeLessThanOrEqual(2 * piece);
  });
});
