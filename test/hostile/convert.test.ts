/**
 * Issue 16, finding 6 (conversion): bodies under or near 8 MB that are pathological. Each is sent to a real
 * `waymark serve` while /healthz is probed: the answer is the contract's code (never INTERNAL_ERROR), no probe
 * waits longer than HEALTH_BOUND_MS, and the process adds at most MEMORY_FACTOR × the request on top of idle.
 * Bounded sizes in `npm test`, the full sizes of the finding with WAYMARK_HOSTILE_LONG=1 (`npm run test:hostile`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits/index.js';
import { ENGINES } from '../engines.js';
import { callTool, HEALTH_BOUND_MS, LONG, MEMORY_FACTOR, startHostileServer, underAttack, type AttackMeasure, type HostileServer, type ToolAnswer } from './harness.js';

const MB = 1024 * 1024;
/** The finding's size (7.9 MB) in the long form; an eighth of it otherwise, still far past every budget. */
const SIZE = LONG ? 7.9 * MB : 1 * MB;

function code(answer: ToolAnswer): string {
  if (answer.envelope?.success) return 'OK';
  return answer.envelope?.error?.code ?? `rpc ${answer.rpcError?.code ?? answer.status}`;
}

/**
 * One attack, measured; on a machine shared with other work a probe can wait on the scheduler rather than on
 * us, so an attack whose probe bound fails is measured once more and both runs must agree to fail.
 */
async function attack<T = ToolAnswer>(server: HostileServer, send: () => Promise<T>): Promise<AttackMeasure<T>> {
  const first = await underAttack(server, send);
  if (first.maxHealthMs <= HEALTH_BOUND_MS) return first;
  const second = await underAttack(server, send);
  return second.maxHealthMs < first.maxHealthMs ? second : first;
}

function repeatTo(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / unit.length));
}

function expectBounded(m: AttackMeasure<ToolAnswer>, requestBytes: number): void {
  expect(m.maxHealthMs, `a /healthz probe waited ${Math.round(m.maxHealthMs)} ms`).toBeLessThanOrEqual(HEALTH_BOUND_MS);
  expect(m.addedRss, `added ${Math.round(m.addedRss / MB)} MB for a ${Math.round(requestBytes / MB)} MB request`).toBeLessThanOrEqual(MEMORY_FACTOR * requestBytes);
}

describe.each(ENGINES)('conversion attacks (%s)', (engine) => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer(engine);
    // Warm the server (first-call compilation) and the conversion workers.
    await callTool(server, 'add_bit', { bit_title: 'warm', bit_body: 'warm' });
    await callTool(server, 'add_bit', { bit_title: 'warm', bit_body: repeatTo('warm text\n\n', 200_000) });
  }, 120_000);
  afterAll(() => server?.close());

  const headings = () => repeatTo('#\n', SIZE);
  const listItems = () => repeatTo('- a\n', SIZE);
  const unclosedImages = () => repeatTo('![', LONG ? 5 * MB : SIZE);
  const attacks: Array<[string, () => string, string[]]> = [
    ['a heading per two bytes (`#\\n`)', headings, ['BODY_TOO_LARGE']],
    ['a list item per four bytes (`- a\\n`)', listItems, ['BODY_TOO_LARGE']],
    // Unclosed image brackets can open nothing: stored as text.
    ['unclosed image brackets (`![`)', unclosedImages, ['OK']],
    ['one long link definition used by every link (`[a][r]`)', () => `[r]: https://example.com/${'x'.repeat(64 * 1024)}\n\n${repeatTo('[a][r] ', SIZE)}`, ['BODY_TOO_LARGE']],
    // Issue 24, finding 10: refused only once markdown-it had kept five numbers for each of their lines (7.9 MB
    // of `a\n\n` added 21–44 times its size); the pre-scan's floor now counts the nodes these lines start.
    ['a paragraph per three bytes (`a\n\n`)', () => repeatTo('a\n\n', SIZE), ['BODY_TOO_LARGE']],
    ['a quote per three bytes (`>\n\n`)', () => repeatTo('>\n\n', SIZE), ['BODY_TOO_LARGE']],
    ['a thematic break per four bytes (`***\n`)', () => repeatTo('***\n', SIZE), ['BODY_TOO_LARGE']],
    ['an ordered item per five bytes (`1. a\n`)', () => repeatTo('1. a\n', SIZE), ['BODY_TOO_LARGE']],
  ];

  it.each(attacks)('%s: its code, /healthz answered', async (_label, make, codes) => {
    const body = make();
    const m = await attack(server, () => callTool(server, 'add_bit', { bit_title: 'attack', bit_body: body, content_format: 'markdown' }));
    expect(codes).toContain(code(m.result));
    expect(m.maxHealthMs, `a /healthz probe waited ${Math.round(m.maxHealthMs)} ms`).toBeLessThanOrEqual(HEALTH_BOUND_MS);
    // A block per line was refused only once markdown-it had built a token for each (a 1 MB body of `#\n` added
    // 142 MB); the prescan's floor of what each line becomes now refuses it before parsing. Unclosed image
    // brackets took 26–41 MB and 3.8 s for 1 MB, one pending character at a time (md.ts, unclosedBracketsRule).
    expectBounded(m, body.length);
  }, 300_000);

  // Over HTTP this one never reaches the tool: the request's own bound (16 MB) refuses it with 413 before the
  // body is parsed. The tool's check (slateTextChars) still guards stdio, where no HTTP bound applies.
  it('Slate JSON text longer than any body is refused before it is parsed (413 at the HTTP bound)', async () => {
    const node = '{"type":"p","children":[{"text":"a"}]}';
    const text = `[${`${node},`.repeat(Math.ceil((LONG ? 38 * MB : 17 * MB) / (node.length + 1)))}${node}]`;
    const m = await underAttack(server, () => callTool(server, 'add_bit', { bit_title: 'slate', bit_body: text, content_format: 'slate' }));
    expect([m.result.status, code(m.result)]).toEqual([413, 'rpc -32000']);
    expect(m.addedRss).toBeLessThanOrEqual(MEMORY_FACTOR * text.length);
    // Not asserted here: /healthz while the JSON-RPC request itself is read (express.json, the tool's input
    // copy), which is finding 3's, before conversion starts.
  }, 300_000);

  // Within the request's JSON bounds (one container per 12 bytes, LIMITS.requestJsonContainers, which a realistic
  // 8 MB Slate body needs), so it reaches the tool: its output budget refuses it in the conversion worker.
  // Known gap: JSON this dense costs about 100 bytes of heap per object, built once by the request's JSON.parse
  // and once by the worker's, so it takes about 28 times its size (113 MB for 4 MB), over MEMORY_FACTOR;
  // asserted at DENSE_SLATE_FACTOR so that it cannot grow unseen.
  it('a Slate node array past the output budget is BODY_TOO_LARGE, /healthz answered', async () => {
    const DENSE_SLATE_FACTOR = 20;
    const node = '{"type":"hr"}';
    // The most such nodes the request's JSON bounds admit (two values each) in the long form.
    const nodes = LONG ? Math.floor(LIMITS.requestJsonValues / 2) - 10 : Math.floor((4 * MB) / (node.length + 1));
    const args = `{"bit_title":"slate","content_format":"slate","bit_body":[${`${node},`.repeat(nodes - 1)}${node}]}`;
    const m = await attack(server, () => callTool(server, 'add_bit', args));
    expect([m.result.status, code(m.result)]).toEqual([200, 'BODY_TOO_LARGE']);
    expect(m.maxHealthMs, `a /healthz probe waited ${Math.round(m.maxHealthMs)} ms`).toBeLessThanOrEqual(HEALTH_BOUND_MS);
    console.log(`dense Slate array: added ${Math.round(m.addedRss / MB)} MB for a ${Math.round(args.length / MB)} MB request, /healthz max ${Math.round(m.maxHealthMs)} ms`);
    expect(m.addedRss).toBeLessThanOrEqual(DENSE_SLATE_FACTOR * args.length);
  }, 300_000);

  it('update_bit converts a large body off the event loop and keeps it', async () => {
    // 2.2 MB of this markdown is 7.6 MB stored (its links get ids), near the 8 MB limit.
    const body = repeatTo('A paragraph of **ordinary** prose with a [link](https://example.com/x).\n\n', LONG ? 2.2 * MB : 1 * MB);
    // A fresh bit each attempt: written once, the body's links have ids that a second write must name.
    const m = await attack(server, async () => {
      const added = await callTool(server, 'add_bit', { bit_title: 'big', bit_body: 'start' });
      return callTool(server, 'update_bit', { bit_id: added.envelope?.data?.bit_id as string, bit_body: body, content_format: 'markdown' });
    });
    expect(code(m.result)).toBe('OK');
    expect(m.maxHealthMs).toBeLessThanOrEqual(HEALTH_BOUND_MS);
  }, 300_000);

  // Issue 24, finding 10: eight near-limit bodies at once held /healthz 338–394 ms. Their conversions run on the
  // pool's threads; what stays on the event loop is each request's reading and the write of its body, whose
  // WAL checkpoint (SQLite) now runs on a thread of its own. Each conversion's time limit counts from when a
  // thread takes it up, so the bodies that wait behind others are still stored.
  it('eight near-limit markdown bodies at once: all stored, /healthz answered', async () => {
    // 2.2 MB of this markdown is 7.6 MB stored (its links get ids); a quarter of that in the short form.
    const body = repeatTo('A paragraph of **ordinary** prose with a [link](https://example.com/x).\n\n', LONG ? 2.2 * MB : 0.55 * MB);
    const m = await attack(server, () => Promise.all(Array.from({ length: 8 }, (_, i) => callTool(server, 'add_bit', { bit_title: `near limit ${i}`, bit_body: body, content_format: 'markdown' }))));
    console.log(`eight ${(body.length / MB).toFixed(2)} MB bodies at once: /healthz waited at most ${Math.round(m.maxHealthMs)} ms, ${Math.round(m.elapsedMs)} ms in all`);
    expect(m.result.map(code)).toEqual(Array.from({ length: 8 }, () => 'OK'));
    expect(m.maxHealthMs, `a /healthz probe waited ${Math.round(m.maxHealthMs)} ms`).toBeLessThanOrEqual(HEALTH_BOUND_MS);
  }, 300_000);

  it('get_bit prints a large body off the event loop', async () => {
    const body = repeatTo(`${'Plain prose, long enough to look like a real step of a real process. '.repeat(12)}\n\n`, LONG ? 7.5 * MB : 2 * MB);
    const added = await callTool(server, 'add_bit', { bit_title: 'big read', bit_body: body, content_format: 'markdown' });
    expect(code(added)).toBe('OK');
    const m = await attack(server, () => callTool(server, 'get_bit', { bit_id: added.envelope?.data?.bit_id as string }));
    expect(code(m.result)).toBe('OK');
    expect(String(m.result.envelope?.data?.bit_body).length).toBeGreaterThan(body.length * 0.9);
    console.log(`get_bit of a ${Math.round(body.length / MB)} MB body: /healthz waited at most ${Math.round(m.maxHealthMs)} ms`);
    expect(m.maxHealthMs, `a /healthz probe waited ${Math.round(m.maxHealthMs)} ms`).toBeLessThanOrEqual(HEALTH_BOUND_MS);
  }, 300_000);
});

describe('the conversion worker over its limits', () => {
  it('over its heap limit: BODY_TOO_LARGE, and the pool converts again afterwards', async () => {
    const server = await startHostileServer('sqlite', { WAYMARK_CONVERT_MEMORY_MB: '48' });
    try {
      const big = await callTool(server, 'add_bit', { bit_title: 'oom', bit_body: repeatTo('word word word\n\n', 2 * MB) });
      expect(code(big)).toBe('BODY_TOO_LARGE');
      expect(big.envelope?.error?.details).toMatchObject({ max_memory_mb: 48 });
      // A body still for the worker (over LIMITS.inlineConvertChars) but small enough for its heap.
      const after = await callTool(server, 'add_bit', { bit_title: 'after', bit_body: repeatTo('word\n\n', 140 * 1024) });
      expect(code(after)).toBe('OK');
    } finally {
      await server.close();
    }
  }, 120_000);

  it('over its time limit: BODY_TOO_LARGE, the worker is replaced, and small bodies still convert', async () => {
    const server = await startHostileServer('sqlite', { WAYMARK_CONVERT_TIMEOUT_MS: '1500' });
    try {
      // Image brackets closed once at the very end: each is still tried as an image, about 2 s a million.
      const slow = await callTool(server, 'add_bit', { bit_title: 'slow', bit_body: `${repeatTo('![', 4 * MB)}]` });
      expect(code(slow)).toBe('BODY_TOO_LARGE');
      expect(slow.envelope?.error?.details).toMatchObject({ max_ms: 1500 });
      expect(code(await callTool(server, 'add_bit', { bit_title: 'small', bit_body: 'still here' }))).toBe('OK');
      // The replaced worker starts (loading its modules) within a few tries of the limit.
      let recovered = 'none';
      for (let i = 0; i < 20 && recovered !== 'OK'; i++) recovered = code(await callTool(server, 'add_bit', { bit_title: 'after', bit_body: repeatTo('word\n\n', 140 * 1024) }));
      expect(recovered).toBe('OK');
    } finally {
      await server.close();
    }
  }, 120_000);
});
