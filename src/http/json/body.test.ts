import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import express, { type Request, type Response } from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../../../test/hostile/harness.js';
import { parseTurns } from '../../../test/parse-turns.js';
import { LIMITS } from '../../limits/index.js';
import { closeUnreadBodies, PIECE_BYTES, readJsonBody } from './body.js';
import { restJsonBody } from '../rest/router.js';

const JSON_TYPE = { 'content-type': 'application/json' };

describe('JSON bodies of REST routes, and bodies nobody reads', () => {
  let server: Server;
  let base: URL;
  beforeAll(async () => {
    const app = express();
    app.use(closeUnreadBodies);
    app.post('/echo', restJsonBody, (req: Request, res: Response) => {
      res.json({ got: req.body as unknown });
    });
    // A refusal sent before the body is read, as the bearer check sends its 401.
    app.post('/refuse', (_req: Request, res: Response) => {
      res.status(401).json({ error: 'invalid_token' });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, body: string | Buffer, headers: Record<string, string> = JSON_TYPE) => rawRequest(new URL(path, base), { headers, body });
  const refusal = (text: string) => (JSON.parse(text) as { success: boolean; error: { code: string; message: string; status: number } });

  it('parses a body within the limits', async () => {
    const res = await post('/echo', '{"a":[1,"x",{"b":null}]}');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ got: { a: [1, 'x', { b: null }] } });
  });

  it('answers every refusal in the envelope: 400 malformed, 415 not JSON, 413 too large (declared or chunked), 413 too complex', async () => {
    const malformed = await post('/echo', '{"a":');
    expect(malformed.status).toBe(400);
    expect(refusal(malformed.text)).toMatchObject({ success: false, error: { code: 'MALFORMED_REQUEST', status: 400 } });
    expect(refusal(malformed.text).error.message).toMatch(/^Parse error: /);

    const text = await post('/echo', '{}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(refusal(text.text).error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });

    const big = Buffer.alloc(LIMITS.restRequestBytes + 1, 0x20);
    for (const headers of [JSON_TYPE, { ...JSON_TYPE, 'transfer-encoding': 'chunked' }]) {
      const res = await post('/echo', big, headers);
      expect(res.status).toBe(413);
      expect(refusal(res.text).error).toMatchObject({ code: 'REQUEST_TOO_LARGE', status: 413, message: 'Request body too large: at most 2 MB of JSON on this route.' });
    }

    // 10,000 empty arrays in 30 KB: within the bytes, over one container per 12 bytes.
    const dense = await post('/echo', `[${'[],'.repeat(9_999)}[]]`);
    expect(dense.status).toBe(413);
    expect(refusal(dense.text).error).toMatchObject({ code: 'REQUEST_TOO_LARGE', message: `Request JSON too complex: more than ${1024 + Math.floor(30_001 / 12)} objects and arrays (one per 12 bytes of body, 600000 at most).` });
    // The same arrays with room around them pass.
    const spaced = await post('/echo', `[${'[],          '.repeat(9_999)}[]]`);
    expect(spaced.status).toBe(200);
  });

  it('closes the connection after a refusal that left the body unread, and keeps it when the body was read', async () => {
    const refused = await post('/refuse', Buffer.alloc(8 * 1024 * 1024, 0x20));
    expect(refused.status).toBe(401);
    expect(refused.headers.connection).toBe('close');
    const read = await post('/echo', '{}');
    expect(read.headers.connection).toBe('keep-alive');
  });
});

describe('readJsonBody on a large body', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A request of `body` arriving in chunks of 64 KB. */
  function request(body: string): IncomingMessage {
    const req = new PassThrough();
    const bytes = Buffer.from(body);
    for (let i = 0; i < bytes.length; i += 65536) req.write(bytes.subarray(i, i + 65536));
    req.end();
    return Object.assign(req, { headers: { 'content-type': 'application/json' } }) as unknown as IncomingMessage;
  }

  /** The value or refusal of `body`, the longest text JSON.parse was given and the turns of the event loop meanwhile. */
  async function read(body: string) {
    const { result: got, longest, turns } = await parseTurns(() => readJsonBody(request(body), LIMITS.mcpRequestBytes));
    return { got, longest, turns };
  }

  it('parses the 7 MB request of issue 16 a piece a turn, to JSON.parse’s value', async () => {
    // As many nodes as the values bound admits (two values each).
    const nodes = Math.floor(LIMITS.requestJsonValues / 2) - 10;
    const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_bit","arguments":{"bit_title":"x","content_format":"slate","bit_body":[${'{"type":"hr"},'.repeat(nodes - 1)}{"type":"hr"}]}}}`;
    const { got, longest, turns } = await read(body);
    expect(got).toEqual({ value: JSON.parse(body) as unknown });
    // One JSON.parse of the 7 MB held the event loop 100 to 270 ms.
    expect(longest).toBeLessThanOrEqual(2 * PIECE_BYTES);
    expect(turns).toBeGreaterThan(body.length / PIECE_BYTES / 2);
  });

  it('refuses a large malformed body as a small one, with JSON.parse’s message', async () => {
    const items = `${'"abcdefghijk",'.repeat(150_000)}"z"`;
    for (const body of [`[${items}]]`, `[${items},]`, `[${items}`, `{"a":[${items}]} {}`]) {
      const { got, longest } = await read(body);
      expect(got).toMatchObject({ refusal: { status: 400, message: expect.stringMatching(/^Parse error: /) as unknown } });
      expect(longest).toBeLessThanOrEqual(2 * PIECE_BYTES);
    }
  });

  it('parses a body of 1 MB or less in one JSON.parse, as before', async () => {
    const body = `[${'"x",'.repeat(200_000)}"y"]`;
    const { got, longest } = await read(body);
    expect(got).toEqual({ value: JSON.parse(body) as unknown });
    expect(longest).toBe(body.length);
  });
});
