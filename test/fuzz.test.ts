/**
 * Fuzzing (issue 7, item 2) through the real MCP client on each engine, with fast-check:
 *
 * - arbitrary JSON objects as the input of every tool of allTools();
 * - near-valid inputs built from each tool's zod input shape: the right field names with wrong types, huge
 *   strings, unicode edge cases (lone surrogates, RTL overrides, zero-width, NUL), ids of real records;
 * - arbitrary and adversarial markdown as a bit body through add_bit and update_bit: deep nesting, huge
 *   lines, every construct malformed (element lines, items, citations, credentials, connection lines and
 *   their parameters, anchors with bad ids), element-like prose.
 *
 * Properties: no call answers INTERNAL_ERROR (or anything that is not our envelope; the harness checks the
 * envelope's form), every refusal carries a code of the catalogue with that code's status, and a body that
 * add_bit accepted renders (get_bit) and writes back (update_bit, markdown) without changing a node.
 *
 * `npm test` runs a bounded number of cases (FUZZ_DEFAULT_RUNS per property and engine); `npm run test:fuzz`
 * runs WAYMARK_FUZZ_RUNS per property (default there 2000). WAYMARK_FUZZ_SEED replays a run.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ELEMENT_TYPES } from '../src/content/elements/index.js';
import { ERROR_CODES, type ErrorCode } from '../src/errors.js';
import { allTools } from '../src/operations/registry.js';
import type { Operation } from '../src/operations/operation.js';
import { ENGINES } from './engines.js';
import { startHarness, type Envelope, type Harness } from './harness.js';
import { buildWorld, isIdField, isOptional, unwrap, type World } from './probe-world.js';

const FUZZ_DEFAULT_RUNS = { json: 60, nearValid: 120, addBit: 60, updateBit: 40 };
const override = Number(process.env.WAYMARK_FUZZ_RUNS ?? '') || null;
const runs = (name: keyof typeof FUZZ_DEFAULT_RUNS) => override ?? FUZZ_DEFAULT_RUNS[name];
const seed = process.env.WAYMARK_FUZZ_SEED ? Number(process.env.WAYMARK_FUZZ_SEED) : undefined;
const timeout = (n: number) => Math.max(60_000, n * 400);

const TOOLS = allTools();
const TOOL_NAMES = TOOLS.map((t) => t.name);

/** A value for a failure message, cut short; a value nested too deep to print says so. */
function printable(value: unknown): string {
  try {
    return JSON.stringify(value).slice(0, 600);
  } catch {
    return '<nested too deep to print>';
  }
}

/** Every answer: our envelope; a refusal has a catalogue code with its status, never INTERNAL_ERROR. */
function checkAnswer(tool: string, args: unknown, envelope: Envelope): void {
  if (envelope.success) return;
  const error = envelope.error;
  const shown = `${tool} ${printable(args)} → ${printable(error)}`;
  expect(error, shown).toBeDefined();
  const code = error?.code as ErrorCode;
  expect(Object.keys(ERROR_CODES), shown).toContain(code);
  expect(code, shown).not.toBe('INTERNAL_ERROR');
  expect(error?.status, shown).toBe(ERROR_CODES[code].status);
  expect(typeof error?.message === 'string' && error.message.length > 0, shown).toBe(true);
  expect(typeof error?.errorId, shown).toBe('string');
}

// ---- strings --------------------------------------------------------------------------------------------

/** Strings that break naive code: unicode edge cases, injection-shaped text, our own syntax. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDC00',
  'x\uD83D',
  '\uDE00x',
  '\u202Eevil\u202C',
  '\u200F\u05E9\u05DC\u05D5\u05DD',
  '\u200B',
  '\u200D\u200C\uFEFF',
  'e\u0301\u0301\u0301',
  '🧭👩🏽‍💻',
  '\r\n\r',
  '\t\v\f',
  '\u2028\u2029',
  '\u001B[31m',
  "'; DROP TABLE bits; --",
  '%00%ff',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '${x}{{x}}',
  '\\',
  '"',
  '[]()',
  'waymark-node:',
  'waymark-node:x',
  'bit-connection:',
  '[[ref:',
  '__proto__',
  'constructor',
];

const nastyString = fc.constantFrom(...NASTY);
const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 8 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
);
const hugeString = fc.tuple(fc.constantFrom('x', 'é', '𝕏', '\u200B', '*', '[', '>', 'ab '), fc.integer({ min: 200, max: 150_000 })).map(([s, n]) => s.repeat(n));

// ---- arbitrary JSON --------------------------------------------------------------------------------------

const jsonLeaf = fc.oneof(anyString, fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constantFrom(-1, 0, 1e308, -1e308, 2 ** 53, 0.5));
/** Arrays or objects nested far deeper than any input needs (the tools refuse past LIMITS.inputDepth). */
const deepJson = fc.tuple(fc.integer({ min: 100, max: 3_000 }), fc.boolean(), jsonLeaf).map(([depth, asArray, leaf]) => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { type: 'p', children: [value] };
  return value;
});

const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: jsonLeaf, weight: 4 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 4 },
    { arbitrary: fc.dictionary(anyString, tie('value'), { maxKeys: 4 }), weight: 4 },
    { arbitrary: deepJson, weight: 1 },
  ),
})).value;

// ---- near-valid inputs from a tool's zod input ----------------------------------------------------------

interface Ids {
  real: string[];
}

/** A value of the right kind for a schema, pushed to its edges (lengths, ranges, enum near-misses). */
function valueFor(schema: z.ZodType, name: string, ids: Ids, depth: number): fc.Arbitrary<unknown> {
  const inner = unwrap(schema);
  const idish = fc.oneof(fc.constantFrom(...ids.real), fc.uuid(), fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', ''), anyString);
  if (isIdField(name)) return name.endsWith('ids') ? fc.array(idish, { maxLength: 5 }) : idish;
  if (inner instanceof z.ZodString) return fc.oneof(anyString, hugeString, fc.constantFrom('x'.repeat(128), 'x'.repeat(129), 'x'.repeat(256), 'x'.repeat(257), 'x'.repeat(1025), 'x'.repeat(2049)));
  if (inner instanceof z.ZodNumber) return fc.oneof(fc.integer({ min: -3, max: 25 }), fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(2 ** 31, 2 ** 53, -(2 ** 63), 1e300));
  if (inner instanceof z.ZodBoolean) return fc.boolean();
  if (inner instanceof z.ZodEnum) return fc.oneof(fc.constantFrom(...(inner.options as Array<string | number>)), fc.constantFrom('', 'MEDIUM', 'unknown'), anyString);
  if (inner instanceof z.ZodLiteral) return fc.constant(inner.value);
  if (depth > 3) return jsonValue;
  if (inner instanceof z.ZodArray) return fc.array(valueFor(inner.element as z.ZodType, name, ids, depth + 1), { maxLength: depth === 0 ? 6 : 3 });
  if (inner instanceof z.ZodUnion) return fc.oneof(...(inner.options as z.ZodType[]).map((o) => valueFor(o, name, ids, depth + 1)));
  if (inner instanceof z.ZodObject) return objectFor(inner.shape as Record<string, z.ZodType>, ids, depth + 1);
  if (inner instanceof z.ZodRecord) return fc.oneof(fc.dictionary(anyString, jsonValue, { maxKeys: 4 }), fc.dictionary(anyString, deepJson, { maxKeys: 1 }));
  return jsonValue;
}

/** A value of the wrong type for a field. */
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(jsonLeaf, { maxLength: 3 }), fc.dictionary(anyString, jsonLeaf, { maxKeys: 3 }), fc.double(), anyString);

function objectFor(shape: Record<string, z.ZodType>, ids: Ids, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(shape)) {
    model[name] = fc.oneof({ weight: 5, arbitrary: valueFor(field, name, ids, depth) }, { weight: 1, arbitrary: wrongType });
    if (!isOptional(field)) required.push(name);
  }
  const fields = fc.oneof(
    { weight: 4, arbitrary: fc.record(model, { requiredKeys: required }) },
    { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
  );
  const extra = fc.option(fc.dictionary(anyString, jsonLeaf, { maxKeys: 2 }), { freq: 6 });
  return fc.tuple(fields, extra).map(([f, e]) => (e ? { ...e, ...f } : f));
}

function nearValid(tool: Operation, ids: Ids): fc.Arbitrary<Record<string, unknown>> {
  return objectFor(tool.input.shape as Record<string, z.ZodType>, ids, 0);
}

// ---- adversarial markdown -------------------------------------------------------------------------------

interface Piece {
  md: string;
  elements: Array<Record<string, unknown>>;
}

const label = fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z][a-z ]{0,12}$/) }, { weight: 2, arbitrary: anyString });
const badKey = fc.constantFrom('', 'a'.repeat(33), 'bad key', 'ü', 'a/b', 'k"', 'k)', randomUUID());
const elementType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ELEMENT_TYPES) }, { weight: 1, arbitrary: fc.constantFrom('text', 'TextArea', 'check_list', '', 'credential', 'ref') });
const url = fc.constantFrom('https://example.com/a', 'http://x', 'mailto:a@b.c', 'javascript:alert(1)', 'data:text/html,x', '', 'https://exa mple.com', 'https://example.com/(x)', '//evil');

/** Pieces of a body, each given its unique key `k`; some valid (with their elements entries), most not. */
function piece(ids: Ids): (k: string) => fc.Arbitrary<Piece> {
  const someId = fc.oneof(fc.constantFrom(...ids.real), fc.uuid(), badKey, anyString);
  const md = (a: fc.Arbitrary<string>) => a.map((text) => ({ md: text, elements: [] as Array<Record<string, unknown>> }));
  return (k) =>
    fc.oneof(
      // prose, raw and nasty
      md(fc.string({ unit: 'binary', maxLength: 120 })),
      md(fc.array(nastyString, { minLength: 1, maxLength: 6 }).map((p) => p.join(' '))),
      // valid elements, with their entries (so that some bodies are accepted)
      fc.tuple(fc.constantFrom('text-area', 'date-picker', 'searchable-field'), label).map(([type, l]) => ({ md: `[${type}: ${l}](waymark-node:${k})`, elements: [{ key: k, type }] })),
      fc.constantFrom('iframe', 'link-block', 'video-external').map((type) => ({ md: `[${type}](waymark-node:${k})`, elements: [{ key: k, type, props: { url: 'https://example.com/v' } }] })),
      fc.tuple(fc.constantFrom(['check-list', '- [ ] ', '- [x] '], ['radio-button', '- ( ) ', '- (x) '], ['dropdown', '- ', '- ']), fc.array(label, { minLength: 1, maxLength: 3 })).map(([[type, open, checked], items]) => ({
        md: `[${type}: List](waymark-node:${k})\n` + items.map((t, i) => `${i === 1 ? checked : open}[${t}](waymark-node:${k}i${i})`).join('\n'),
        elements: [{ key: k, type, items: items.map((_, i) => ({ key: `${k}i${i}` })) }],
      })),
      fc.tuple(label, url).map(([t, u]) => ({ md: `Read [${t}](${u} "waymark-node:${k}") now.`, elements: [{ key: k, type: 'link-inline', props: { url: u } }] })),
      // element lines: wrong types, bad keys, no entry, entry of another type, unknown props
      fc.tuple(elementType, label, fc.oneof(fc.constant(k), badKey)).map(([type, l, key]) => ({ md: `[${type}: ${l}](waymark-node:${key})`, elements: [] })),
      fc.tuple(elementType, elementType, label).map(([a, b, l]) => ({ md: `[${a}: ${l}](waymark-node:${k})`, elements: [{ key: k, type: b }] })),
      fc.tuple(elementType, fc.dictionary(anyString, jsonLeaf, { maxKeys: 3 }), jsonValue).map(([type, props, items]) => ({ md: `[${type}](waymark-node:${k})`, elements: [{ key: k, type, props, items }] })),
      fc.tuple(elementType, label).map(([type, l]) => ({ md: `Please fill [${type}: ${l}](waymark-node:${k}) in this sentence.`, elements: [{ key: k, type }] })),
      // items without a list, malformed items
      fc.tuple(fc.constantFrom('- ( ) ', '- [ ] ', '- [x] ', '- (x) ', '- ', '* [ ] ', '- ( ', '- [] ', '1. [ ] '), label, fc.oneof(fc.constant(k), badKey)).map(([open, t, key]) => ({ md: `${open}[${t}](waymark-node:${key})`, elements: [] })),
      // citations
      fc.tuple(someId, label).map(([id, l]) => ({ md: `See [[ref:${id}|${l}]].`, elements: [] })),
      md(fc.constantFrom('[[ref:', '[[ref:]]', '[[ref:|]]', '[[ref:x|', '[[ref:|label]]', '[[ ref : x | y ]]', '[[ref:[[ref:x|y]]|z]]', ']]')),
      // credentials
      fc.tuple(anyString, anyString, anyString).map(([a, b, p]) => ({ md: `[credential: ${a}](credential:${b} "${p}")`, elements: [] })),
      md(fc.constantFrom('[credential: x](credential:x)', '[credential: ](credential: "")', '[credential: x](credential:y "p")', 'credential:x', '[credential: a b](credential:a b "p")')),
      // connection lines with broken parameters
      fc
        .tuple(label, someId, fc.array(fc.constantFrom('node=', `node=${randomUUID()}`, 'when=', 'when=x:y', 'when=x:checked', 'when=:', 'preview=0', 'preview=2', 'description=0', 'categories=x', 'readingTime=-1', 'foo=bar', '', '&', 'node=a&node=b', '%zz'), { maxLength: 4 }))
        .map(([l, target, params]) => ({ md: `[${l}](bit-connection:${target}${params.length > 0 ? `?${params.join('&')}` : ''})`, elements: [] })),
      fc.tuple(someId).map(([target]) => ({ md: `Go to [next](bit-connection:${target}) in prose.`, elements: [] })),
      // links and media with bad anchors
      fc.tuple(label, url, fc.oneof(someId, fc.constant(''))).map(([t, u, id]) => ({ md: `[${t}](${u} "waymark-node:${id}")`, elements: [] })),
      fc.tuple(label, url, fc.oneof(someId, fc.constant(''))).map(([t, u, id]) => ({ md: `![${t}](${u} "waymark-node:${id} title")`, elements: [] })),
      // deep nesting and huge lines
      fc.integer({ min: 1, max: 400 }).map((n) => ({ md: `${'>'.repeat(n)} deep`, elements: [] })),
      fc.integer({ min: 1, max: 120 }).map((n) => ({ md: Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'), elements: [] })),
      fc.integer({ min: 1, max: 2000 }).map((n) => ({ md: `${'*'.repeat(n)}x${'_'.repeat(n)}`, elements: [] })),
      fc.integer({ min: 1, max: 2000 }).map((n) => ({ md: `${'['.repeat(n)}x${'](y)'.repeat(n)}`, elements: [] })),
      fc.integer({ min: 1, max: 100 }).map((n) => ({ md: `${'> - '.repeat(n)}[text-area: x](waymark-node:${k})`, elements: [{ key: k, type: 'text-area' }] })),
      hugeString.map((s) => ({ md: s, elements: [] })),
      // other markdown: code fences holding our syntax, html, tables
      label.map((l) => ({ md: '```\n[text-area: ' + l + '](waymark-node:' + k + ')\n```', elements: [] })),
      md(fc.constantFrom('<div>', '<!-- ', '</p><script>x</script>', '| a | b |\n|---|---|\n| [[ref:x|y]] | [c](bit-connection:z) |', '---', '# ', '\\', '`', '~~~', '[x]: https://example.com "waymark-node:k"')),
    );
}

/**
 * Pieces that are hard but mostly valid, so that many bodies are accepted and the write-back property is
 * tested on them: nasty unicode prose, elements at the nesting limit, real citations and connections,
 * links with odd labels and destinations, long runs of markdown punctuation.
 */
function tolerantPiece(ids: Ids, world: () => World): (k: string) => fc.Arbitrary<Piece> {
  const md = (a: fc.Arbitrary<string>) => a.map((text) => ({ md: text, elements: [] as Array<Record<string, unknown>> }));
  const prose = fc.array(fc.oneof(fc.stringMatching(/^[A-Za-z]{1,8}$/), nastyString, fc.string({ unit: 'grapheme', maxLength: 12 })), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
  const okUrl = fc.constantFrom('https://example.com/a', 'https://example.com/a b', 'https://example.com/ü?q=1&r=(2)', 'mailto:a@b.c', '#below', '/relative/path', 'https://example.com/"quoted"', 'https://xn--bcher-kva.example/');
  return (k) =>
    fc.oneof(
      md(prose),
      md(fc.string({ unit: 'binary', maxLength: 60 })),
      fc.tuple(fc.constantFrom('text-area', 'date-picker', 'searchable-field'), prose).map(([type, l]) => ({ md: `[${type}: ${l}](waymark-node:${k})`, elements: [{ key: k, type }] })),
      fc.tuple(fc.constantFrom(['check-list', '- [ ] ', '- [x] '], ['radio-button', '- ( ) ', '- (x) '], ['dropdown', '- ', '- ']), fc.array(prose, { minLength: 1, maxLength: 3 })).map(([[type, open, checked], items]) => ({
        md: `[${type}: ${'List'}](waymark-node:${k})\n` + items.map((t, i) => `${i === 1 ? checked : open}[${t}](waymark-node:${k}i${i})`).join('\n'),
        elements: [{ key: k, type, items: items.map((_, i) => ({ key: `${k}i${i}` })) }],
      })),
      fc.tuple(prose, okUrl).map(([t, u]) => ({ md: `Read [${t}](<${u}> "waymark-node:${k}") now.`, elements: [{ key: k, type: 'link-inline' }] })),
      fc.tuple(okUrl).map(([u]) => ({ md: '', elements: [{ key: k, type: 'link-inline', props: { url: u.startsWith('http') || u.startsWith('mailto') ? u : `https://example.com${u}` } }] })),
      fc.tuple(prose, okUrl).map(([t, u]) => ({ md: `[${t}](<${u}>) and ![${t}](<${u}> "a title")`, elements: [] })),
      prose.map((l) => ({ md: `See [[ref:${world().referenceId}|${l.replace(/[[\]|]/g, '')}]] here.`, elements: [] })),
      prose.map((l) => ({ md: `[${l.replace(/[[\]]/g, '') || 'next'}](bit-connection:${world().targetBitId})`, elements: [] })),
      md(fc.constant(`[→](bit-connection:${ids.real[1]})`)),
      fc.integer({ min: 1, max: 60 }).map((n) => ({ md: `${'> '.repeat(n)}deep`, elements: [] })),
      fc.integer({ min: 1, max: 30 }).map((n) => ({ md: Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'), elements: [] })),
      fc.integer({ min: 1, max: 30 }).map((n) => ({ md: `${'> '.repeat(n)}[text-area: Deep](waymark-node:${k})`, elements: [{ key: k, type: 'text-area' }] })),
      fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom('*', '_', '[', ']', '`', '\\', '<', '!', '#', '|', '~')).map(([n, c]) => ({ md: `x ${c.repeat(n)} y`, elements: [] })),
      fc.integer({ min: 1000, max: 100_000 }).map((n) => ({ md: 'word '.repeat(n / 5), elements: [] })),
      prose.map((l) => ({ md: '```\n' + l + '\n[text-area: x](waymark-node:zz)\n```', elements: [] })),
      md(fc.constantFrom('<div>raw</div>', '| a | b |\n|---|---|\n| 1 | 2 |', '---', '1. one\n2. two', '# Title', 'a  \nb', '\u202Eright to left\u202C', 'zero\u200Bwidth', 'NUL\u0000here', 'lone \uD800 surrogate')),
    );
}

function body(ids: Ids, world?: () => World): fc.Arbitrary<Piece> {
  const make = world ? tolerantPiece(ids, world) : piece(ids);
  return fc
    .array(fc.nat(), { minLength: 1, maxLength: 6 })
    .chain((seeds) => fc.tuple(...seeds.map((_, i) => make(`k${i}`)), fc.constantFrom('\n', '\n\n', '\r\n', '')))
    .map((parts) => {
      const sep = parts[parts.length - 1] as string;
      const pieces = parts.slice(0, -1) as Piece[];
      return { md: pieces.map((p) => p.md).join(sep === '' ? '\n\n' : sep), elements: pieces.flatMap((p) => p.elements) };
    });
}

// ---- what earlier runs found (each fixed), replayed first on every run ----------------------------------

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Inputs that answered INTERNAL_ERROR on PostgreSQL (NUL, lone surrogates) or on both engines (deep JSON). */
function regressionInputs(world: World): Array<[string, Record<string, unknown>]> {
  return [
    ['add_bit', { bit_title: 'a\u0000b', bit_body: 'x' }],
    ['add_bit', { bit_title: 't', bit_body: 'x\uD83D ' }],
    ['add_bit', { bit_title: 't', bit_body: 'x', bit_categories: ['a\u0000'] }],
    ['add_bit', { bit_title: 't', bit_body: [{ type: 'p', children: [{ text: 'a\uD800' }] }] }],
    ['create_reference', { reference_title: 'r', reference_content: [{ type: 'p', children: [{ text: 'a\u0000' }] }] }],
    ['list_bits', { query: 'a\u0000' }],
    ['get_bit', { bit_id: 'a\u0000' }],
    ['create_flow', { flow_title: 'f\u0000', start_bit_id: world.bitId }],
    ['start_trail', { flow_id: world.flowId, trail_title: 'x\uD800', trail_context: { 'k\u0000': 'v\uD800' } }],
    ['transfer_step', { trail_id: world.trailId, reason: 'r\u0000' }],
    ['link_reference', { bit_id: world.targetBitId, reference_id: world.referenceId, display_label: 'x\u0000' }],
    ['start_trail', { flow_id: world.flowId, trail_context: { a: nested(3000) } }],
    ['add_bit', { bit_title: 't', bit_body: nested(100_000) }],
    ['add_bit', { bit_title: 't', bit_body: '[searchable-field: S](waymark-node:s)', elements: [{ key: 's', type: 'searchable-field', props: { data: [nested(50_000)] } }] }],
  ];
}

/** Bodies whose write-back changed a node. */
const REGRESSION_BODIES: Piece[] = [
  // a link-inline url given in props was stored as given, printed as <…>, and normalised when read back
  {
    md: 'Read [](https://exa mple.com "waymark-node:k3") now.',
    elements: [{ key: 'k3', type: 'link-inline', props: { url: 'https://exa mple.com' } }],
  },
  // a hard line break before an element line made an empty paragraph that printed as nothing
  { md: '\\\n[iframe](waymark-node:k1)\n[[ ref : x | y ]]', elements: [{ key: 'k1', type: 'iframe', props: { url: 'https://example.com/v' } }] },
];

// ---- the properties -------------------------------------------------------------------------------------

describe.each(ENGINES)('fuzz on %s', (engine) => {
  let h: Harness;
  let world: World;
  let ids: Ids;
  const counts = { calls: 0, refused: 0, accepted: 0, bodiesAccepted: 0 };

  beforeAll(async () => {
    h = await startHarness(engine);
    world = await buildWorld(h.owner.client, h.owner.principalId, null, { services: h.services, token: h.owner.token });
    const scope = await h.services.auth.createScope(h.accountId, 'fuzz');
    ids = {
      real: [world.bitId, world.targetBitId, world.elementId, world.connectionId, world.flowId, world.referenceId, world.bitReferenceId, world.trailId, world.principalId, scope],
    };
  });
  afterAll(async () => {
    console.info(`fuzz on ${engine}: ${counts.calls} calls, ${counts.accepted} accepted, ${counts.refused} refused, ${counts.bodiesAccepted} fuzzed bodies accepted and written back`);
    await h.close();
  });

  async function call(tool: string, args: Record<string, unknown>): Promise<Envelope> {
    counts.calls += 1;
    const envelope = await h.owner.client.call(tool, args);
    if (envelope.success) counts.accepted += 1;
    else counts.refused += 1;
    checkAnswer(tool, args, envelope);
    return envelope;
  }

  it(
    'arbitrary JSON as any tool\'s input: catalogue codes only, never INTERNAL_ERROR',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...TOOL_NAMES), fc.dictionary(anyString, jsonValue, { maxKeys: 6 }), async (tool, args) => {
          await call(tool, args);
        }),
        { numRuns: runs('json'), seed, examples: regressionInputs(world) },
      );
    },
    timeout(runs('json')),
  );

  it(
    'near-valid input of every tool (right names, wrong types, edge strings, real ids): catalogue codes only',
    async () => {
      const perTool = fc.oneof(...TOOLS.map((tool) => nearValid(tool, ids).map((args) => ({ tool: tool.name, args }))));
      await fc.assert(
        fc.asyncProperty(perTool, async ({ tool, args }) => {
          await call(tool, args);
        }),
        { numRuns: runs('nearValid'), seed },
      );
    },
    timeout(runs('nearValid')),
  );

  it(
    'adversarial markdown through add_bit: refused with a catalogue code, or accepted, rendered and written back unchanged',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(body(ids), body(ids, () => world)), fc.boolean(), async ({ md, elements }, withElements) => {
          const args: Record<string, unknown> = { bit_title: 'fuzz', bit_body: md, ...(withElements || elements.length > 0 ? { elements } : {}) };
          const added = await call('add_bit', args);
          if (!added.success) return;
          const bitId = (added.data as { bit_id: string }).bit_id;
          const markdown = await call('get_bit', { bit_id: bitId });
          expect(markdown.success, JSON.stringify(markdown.error)).toBe(true);
          const before = await call('get_bit', { bit_id: bitId, format: 'slate' });
          const text = (markdown.data as { bit_body: string }).bit_body;
          const written = await call('update_bit', { bit_id: bitId, bit_body: text, content_format: 'markdown' });
          expect(written.success, `write-back of\n${text.slice(0, 2000)}\n(from\n${md.slice(0, 2000)})\n→ ${JSON.stringify(written.error)}`).toBe(true);
          const data = written.data as { removed_node_ids: string[]; minted_node_ids: Record<string, string> };
          expect(data.removed_node_ids).toEqual([]);
          expect(data.minted_node_ids).toEqual({});
          const after = await call('get_bit', { bit_id: bitId, format: 'slate' });
          expect(after.data?.bit_body, `body changed by writing back\n${text.slice(0, 2000)}`).toEqual(before.data?.bit_body);
          const again = await call('get_bit', { bit_id: bitId });
          expect((again.data as { bit_body: string }).bit_body).toBe(text);
          counts.bodiesAccepted += 1;
        }),
        { numRuns: runs('addBit'), seed, examples: REGRESSION_BODIES.map((body): [Piece, boolean] => [body, false]) },
      );
    },
    timeout(runs('addBit') * 4),
  );

  it(
    'adversarial markdown through update_bit of a bit with elements, a connection and a citation: catalogue codes only',
    async () => {
      await fc.assert(
        fc.asyncProperty(body(ids), fc.array(fc.oneof(fc.constantFrom(...ids.real), anyString), { maxLength: 3 }), async ({ md, elements }, remove) => {
          const args: Record<string, unknown> = { bit_id: world.bitId, bit_body: md, content_format: 'markdown', elements, ...(remove.length > 0 ? { remove_node_ids: remove } : {}) };
          await call('update_bit', args);
        }),
        { numRuns: runs('updateBit'), seed },
      );
      // The server still answers.
      const platform = await call('describe_platform', {});
      expect(platform.success).toBe(true);
    },
    timeout(runs('updateBit')),
  );
});
