/**
 * A large answer is encoded on a conversion thread, not on the event loop: over `/mcp` not by the SDK's
 * `Response.json`, and the client receives exactly the answer the SDK would have written; under `/api/v1` not by
 * Express's `res.json`, with the same envelope. Real HTTP app, real store, real conversion pool, the official SDK
 * client.
 */
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { LIMITS } from '../../limits/index.js';
import { BATCH_REFUSAL } from '../mcp/route.js';
import { startConvertPool, stopConvertPool } from '../../services/convert/pool.js';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };

/** Markdown of about `chars` characters, with characters of one, two, three and four UTF-8 bytes and JSON's escapes. */
function bodyOf(chars: number): string {
  const paragraph = 'Prose with "quotes", a back\\slash, café, 日本語 and 🙂 in it.\n\n';
  return paragraph.repeat(Math.ceil(chars / paragraph.length));
}

describe('large answers over /mcp', () => {
  let h: Harness;
  let web: WebServer;
  let bitId: string;
  let markdown: string;
  beforeAll(async () => {
    startConvertPool({ threads: 1 });
    h = await startHarness('sqlite');
    web = await startWebServer(h.services);
    const added = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Large', bit_body: bodyOf(LIMITS.offThreadAnswerChars) });
    bitId = added.bit_id;
    markdown = (await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: bitId })).bit_body;
    expect(markdown.length).toBeGreaterThan(LIMITS.offThreadAnswerChars);
  }, 60_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await web?.close();
    await h?.close();
    await stopConvertPool();
  });

  const post = (body: unknown) =>
    fetch(new URL('/mcp', web.origin), { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${h.owner.token}` }, body: JSON.stringify(body) });

  it('reach the official client whole, as the envelope twice, and not through the SDK’s Response.json', async () => {
    const written = vi.spyOn(Response, 'json');
    const client = new Client({ name: 'large-answer-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', web.origin), { requestInit: { headers: { authorization: `Bearer ${h.owner.token}` } } }));
    const result = await client.callTool({ name: 'get_bit', arguments: { bit_id: bitId } });
    await client.close();
    const envelope = result.structuredContent as { success: boolean; data: { bit_id: string; bit_body: string } };
    expect(envelope.success).toBe(true);
    expect(envelope.data.bit_body).toBe(markdown);
    const text = (result.content as Array<{ type: string; text: string }>)[0];
    expect(text.type).toBe('text');
    expect(text.text).toBe(JSON.stringify(envelope));
    // The SDK wrote only the stand-in for the large answer; the small ones (initialize) it wrote itself.
    const sdkWrote = written.mock.calls.map(([message]) => JSON.stringify(message));
    expect(sdkWrote.some((json) => json.includes('"result":{}'))).toBe(true);
    expect(sdkWrote.every((json) => json.length < LIMITS.offThreadAnswerChars)).toBe(true);
  });

  it('are the bytes the SDK would have written, with their length, for string and number ids', async () => {
    for (const id of ['large-1', 42]) {
      const response = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_bit', arguments: { bit_id: bitId } } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
      const message = JSON.parse(bytes.toString('utf8')) as { id: unknown; result: { structuredContent: { data: { bit_body: string } } } };
      expect(message.id).toBe(id);
      expect(message.result.structuredContent.data.bit_body).toBe(markdown);
      expect(bytes.equals(Buffer.from(JSON.stringify(message)))).toBe(true);
    }
  });

  it('in the 2026-07-28 era too: the client negotiating that era gets the answer whole, and the SDK wrote only the stand-in', async () => {
    const written = vi.spyOn(Response, 'json');
    const client = new Client({ name: 'large-answer-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', web.origin), { requestInit: { headers: { authorization: `Bearer ${h.owner.token}` } } }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'get_bit', arguments: { bit_id: bitId } });
    await client.close();
    const envelope = result.structuredContent as { success: boolean; data: { bit_body: string } };
    expect(envelope.data.bit_body).toBe(markdown);
    expect((result.content as Array<{ text: string }>)[0]?.text).toBe(JSON.stringify(envelope));
    const sdkWrote = written.mock.calls.map(([message]) => JSON.stringify(message));
    expect(sdkWrote.some((json) => json.includes('"result":{}'))).toBe(true);
    expect(sdkWrote.every((json) => json.length < LIMITS.offThreadAnswerChars)).toBe(true);
  });

  it('are never asked for in a batch: a batch is refused before any of it runs', async () => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_bit', arguments: { bit_id: bitId } } });
    const response = await post([call(1), call(2)]);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSAL }, id: null });
  });

  it('leave small answers and refusals to the SDK', async () => {
    const written = vi.spyOn(Response, 'json');
    const response = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_bit', arguments: { bit_id: '00000000-0000-4000-8000-000000000000' } } });
    const message = (await response.json()) as { result: { isError: boolean; structuredContent: { error: { code: string } } } };
    expect(message.result.isError).toBe(true);
    expect(message.result.structuredContent.error.code).toBe('BIT_NOT_FOUND');
    expect(written).toHaveBeenCalledTimes(1);
  });

  it('under /api/v1, are the envelope res.json would have written, not written on this thread', async () => {
    const written: number[] = [];
    const stringify = JSON.stringify;
    vi.spyOn(JSON, 'stringify').mockImplementation(function (this: unknown, ...args: Parameters<typeof JSON.stringify>) {
      const json = stringify.apply(JSON, args);
      written.push(json?.length ?? 0);
      return json;
    });
    const response = await fetch(new URL(`/api/v1/bits/${bitId}`, web.origin), { headers: { authorization: `Bearer ${h.owner.token}` } });
    vi.restoreAllMocks();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const envelope = JSON.parse(bytes.toString('utf8')) as { success: boolean; data: { bit_id: string; bit_body: string } };
    expect(envelope).toMatchObject({ success: true, data: { bit_id: bitId, bit_body: markdown } });
    expect(bytes.equals(Buffer.from(JSON.stringify(envelope)))).toBe(true);
    expect(Math.max(0, ...written)).toBeLessThan(LIMITS.offThreadAnswerChars);
  });
});
