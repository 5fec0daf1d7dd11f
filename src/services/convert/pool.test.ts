/**
 * The conversion pool gives what the same work inline gives: a stored body read for get_bit (markdown,
 * elements, connections) and a large body written back against the stored one, whose tree the worker
 * keeps only summarised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyToMarkdown, markdownToBody, type SlateBody } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { prepareBody, summarisePrevious } from '../bits/body.js';
import { prepareBodyOffThread, readBodyOffThread, startConvertPool, stopConvertPool } from './pool.js';
import { readBody } from './task.js';

const TARGET = '22222222-2222-4222-8222-222222222222';

/** A stored body past the inline size, with an element, its items, a link, an image and a connection. */
function largeBody(): SlateBody {
  const prose = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} with [a link](https://example.com/${i}) and **bold** text.`).join('\n\n');
  const markdown = `[dropdown: Site](waymark-node:dd)\n- [North](waymark-node:n)\n- [South](waymark-node:s)\n\n![logo](https://example.com/l.png)\n\n${prose}\n\n[Next](bit-connection:${TARGET})\n`;
  const { body } = markdownToBody(markdown, { elements: [{ key: 'dd', type: 'dropdown', items: [{ key: 'n' }, { key: 's' }] }] });
  for (const node of body.children) if (node.type === 'bit-connection') node.id = '44444444-4444-4444-8444-444444444444';
  return body;
}

describe('the conversion pool', () => {
  beforeAll(() => startConvertPool({ threads: 1 }));
  afterAll(() => stopConvertPool());

  it('reads a large stored body for get_bit as inline', async () => {
    const body = largeBody();
    const json = JSON.stringify(body);
    expect(json.length).toBeGreaterThan(LIMITS.inlineConvertChars);
    const read = await readBodyOffThread(json);
    expect(read).toEqual(readBody(body));
    expect(read.elements.map((e) => e.type)).toEqual(['dropdown']);
    expect(read.connections).toHaveLength(1);
  });

  it('writes a large body back against the stored one, every node kept', async () => {
    const body = largeBody();
    const json = JSON.stringify(body);
    const markdown = bodyToMarkdown(body);
    const input = { bit_body: markdown, content_format: 'markdown' as const };
    const { json: written, ...prepared } = await prepareBodyOffThread(input, json, []);
    // From the conversion thread the body comes as its UTF-8 bytes.
    expect(written).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(written as Uint8Array)).toBe(json);
    expect(prepared).toMatchObject({ removed: [], fresh: [], addedCitations: [], minted: {} });
    const { json: inline, ...preparedInline } = prepareBody(input, summarisePrevious(body), () => 'unused', []);
    expect(inline).toBe(json);
    expect(prepared).toEqual(preparedInline);
  });
});

describe('the conversion time limit', () => {
  afterAll(() => stopConvertPool());
  const body = 'A paragraph of **ordinary** prose with a [link](https://example.com/x).\n\n'.repeat(4_000);
  const convert = () => prepareBodyOffThread({ bit_body: body, content_format: 'markdown' }, undefined);

  it('counts from when a thread takes the body up, not from its wait behind others', async () => {
    // How long one conversion takes here (after the thread's start, which is no conversion's)...
    startConvertPool({ threads: 1 });
    await convert();
    const started = performance.now();
    await convert();
    const alone = performance.now() - started;
    await stopConvertPool();
    // ...then a limit of four times that, and seven bodies at once on the one thread: the last waits six.
    startConvertPool({ threads: 1, timeoutMs: Math.ceil(4 * alone) });
    await convert();
    const all = await Promise.allSettled(Array.from({ length: 7 }, convert));
    expect(all.filter((r) => r.status === 'rejected').map((r) => String(r.reason))).toEqual([]);
  });
});
