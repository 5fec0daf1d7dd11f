/**
 * Issue 16, finding 3 and the HTTP part of 10: bodies were parsed (64 MB, every path) before the token was
 * checked, and refusals answered Express's HTML page with a stack trace. Each attack here goes to a real
 * `waymark serve` while /healthz is probed and the process's peak memory is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/limits/index.js';
import { ENGINES } from '../engines.js';
import {
  HEALTH_BOUND_MS,
  LONG,
  MCP_HEADERS,
  MEMORY_FACTOR,
  RSS_NOISE,
  rawRequest,
  repeatJson,
  serveStartOutput,
  startHostileServer,
  underAttack,
  type HostileServer,
  type RawResponse,
} from './harness.js';

const MB = 1024 * 1024;

/** A tools/call whose arguments are `argsJson`, as JSON-RPC text. */
const toolsCall = (argsJson: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"describe_platform","arguments":${argsJson}}}`;

/** Small objects, the shape JSON.parse is slowest and largest on: `{"a":[{"b":1}]}` repeated to about `bytes`. */
const smallObjects = (bytes: number) => toolsCall(`{"items":${repeatJson('{"a":[{"b":1}]}', Math.floor(bytes / 16))}}`);

/** The JSON-RPC error of an answer, after checking it is JSON and carries no trace of Express's HTML page. */
function rpcError(res: RawResponse): { code: number; message: string } {
  expectCleanJson(res);
  const body = JSON.parse(res.text) as { jsonrpc: string; error: { code: number; message: string }; id: null };
  expect(body).toMatchObject({ jsonrpc: '2.0', id: null });
  return body.error;
}

/** The tool's envelope in an answer (Streamable HTTP answers a call as one server-sent event). */
function envelopeOf(res: RawResponse): { success: boolean; error?: { code: string } } | undefined {
  // /mcp answers JSON (enableJsonResponse); an event stream's last data line is read the same way.
  const data = String(res.headers['content-type']).includes('text/event-stream') ? res.text.split('\n').findLast((line) => line.startsWith('data:'))?.slice(5) : res.text;
  return data ? (JSON.parse(data) as { result?: { structuredContent?: { success: boolean; error?: { code: string } } } }).result?.structuredContent : undefined;
}

function expectCleanJson(res: RawResponse): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.text).not.toMatch(/<html|<pre>|node_modules|\/work\/|\s+at \S+ \(/i);
}

describe.each(ENGINES)('hostile HTTP on %s', (engine) => {
  let server: HostileServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    server = await startHostileServer(engine);
    auth = { ...MCP_HEADERS, authorization: `Bearer ${server.token}`, 'mcp-protocol-version': '2025-06-18' };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an anonymous body is refused before a byte of it is read: 401 at once, /healthz answered, memory flat', async () => {
    // Long form: the reported attack, twelve 60 MB bodies at once (they blocked /healthz 22 s and reached 3 GB).
    const size = LONG ? 60 * MB : 8 * MB;
    const count = LONG ? 12 : 4;
    const body = Buffer.from(smallObjects(size));
    const restore = new URL('/api/v1/bits/00000000-0000-4000-8000-000000000000/restore', server.base);
    const m = await underAttack(server, () =>
      Promise.all(Array.from({ length: count }, (_, i) => rawRequest(i % 2 ? restore : server.mcpUrl, { headers: { ...MCP_HEADERS, ...(i % 4 === 3 ? { authorization: 'Bearer wrong' } : {}) }, body }))),
    );
    m.result.forEach((res, i) => {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer .*resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/mcp"/);
      expectCleanJson(res);
      // A wrong token gets the bearer check's OAuth error (RFC 6750); no credentials at all under /api/v1 gets
      // the API's envelope (the web app's session check answers first there).
      const anonymousRest = i % 2 === 1 && i % 4 !== 3;
      expect(JSON.parse(res.text)).toMatchObject(anonymousRest ? { success: false, error: { code: 'UNAUTHENTICATED' } } : { error: 'invalid_token' });
    });
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    // Nothing of the bodies is kept: under half of what was sent (the old parser added 700 MB per 60 MB body). One
    // body's size was too tight a bound for the short form: CI measured +8.5 MB of ordinary noise for four 8 MB bodies.
    expect(m.addedRss).toBeLessThan(Math.max((count * body.length) / 2, RSS_NOISE));
  });

  it('an authenticated body over 16 MB is 413 JSON-RPC, whether its length is declared or it comes chunked', async () => {
    const over = Buffer.alloc(LIMITS.mcpRequestBytes + 1, 0x20);
    const m = await underAttack(server, async () => [
      await rawRequest(server.mcpUrl, { headers: auth, body: over }),
      await rawRequest(server.mcpUrl, { headers: { ...auth, 'transfer-encoding': 'chunked' }, body: over }),
    ]);
    for (const res of m.result) {
      expect(res.status).toBe(413);
      expect(rpcError(res)).toEqual({ code: -32000, message: 'Request body too large: at most 16 MB of JSON on this route.' });
    }
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(MEMORY_FACTOR * LIMITS.mcpRequestBytes);
  });

  it('a body within 16 MB but of too many objects, values, levels, distinct keys or short strings is 413 before JSON.parse runs', async () => {
    const size = LONG ? 15 * MB : 4 * MB;
    // Bodies encoded before the attack, so that the probing process does not pause to encode them.
    const objects = Buffer.from(smallObjects(size));
    const values = Buffer.from(toolsCall(`{"n":${repeatJson('1', LIMITS.requestJsonValues + 1)}}`));
    const deep = Buffer.from(toolsCall(`${'['.repeat(LIMITS.requestJsonDepth)}${']'.repeat(LIMITS.requestJsonDepth)}`));
    // Objects of one key each, every key new (JSON.parse took 590 ms for 500,000 of them over 10,000 keys), and
    // distinct short strings (each one internalized: a million took 300 ms).
    const count = Math.floor(size / 16);
    const keys = Buffer.from(toolsCall(`[${Array.from({ length: count }, (_, i) => `{"k${i}":1}`).join(',')}]`));
    const strings = Buffer.from(toolsCall(`[${Array.from({ length: count }, (_, i) => `"${i}"`).join(',')}]`));
    const m = await underAttack(server, async () => {
      const answers: RawResponse[] = [];
      for (const body of [objects, values, deep, keys, strings]) answers.push(await rawRequest(server.mcpUrl, { headers: auth, body }));
      return answers;
    });
    const [tooManyObjects, tooManyValues, tooDeep, tooManyKeys, tooManyStrings] = m.result;
    expect(tooManyKeys.status).toBe(413);
    expect(rpcError(tooManyKeys).message).toBe(`Request JSON too complex: more than ${LIMITS.requestJsonKeys} distinct keys.`);
    expect(tooManyStrings.status).toBe(413);
    expect(rpcError(tooManyStrings).message).toBe(`Request JSON too complex: more than ${LIMITS.requestJsonShortStrings} distinct strings of up to 10 characters.`);
    expect(tooManyObjects.status).toBe(413);
    expect(rpcError(tooManyObjects).message).toMatch(/^Request JSON too complex: more than \d+ objects and arrays \(one per 12 bytes of body, 600000 at most\)\.$/);
    expect(tooManyValues.status).toBe(413);
    expect(rpcError(tooManyValues).message).toBe(`Request JSON too complex: more than ${LIMITS.requestJsonValues} values (strings and keys, numbers, literals).`);
    expect(tooDeep.status).toBe(413);
    expect(rpcError(tooDeep).message).toBe(`Request JSON too complex: more than ${LIMITS.requestJsonDepth} levels of nesting.`);
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(MEMORY_FACTOR * objects.length);
  });

  it('a body near 16 MB of one long string is read, parsed and answered without holding the event loop', async () => {
    const size = LONG ? 15 * MB : 4 * MB;
    const body = Buffer.from(toolsCall(`{"padding":"${'x'.repeat(size)}"}`));
    const m = await underAttack(server, () => rawRequest(server.mcpUrl, { headers: auth, body }));
    expect(m.result.status).toBe(200);
    // It reached the tool, which refuses the unknown key.
    expect(envelopeOf(m.result)?.error?.code).toBe('VALIDATION_ERROR');
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(MEMORY_FACTOR * body.length);
  });

  it('malformed JSON is a JSON-RPC parse error and a body that is not JSON is 415, never HTML', async () => {
    const malformed = await rawRequest(server.mcpUrl, { headers: auth, body: '{"jsonrpc":"2.0","id":1,' });
    expect(malformed.status).toBe(400);
    const parseError = rpcError(malformed);
    expect(parseError.code).toBe(-32700);
    // V8's own words, which name the position.
    expect(parseError.message).toMatch(/^Parse error: .*JSON.*position 24/);
    const text = await rawRequest(server.mcpUrl, { headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);
    expect(rpcError(text)).toEqual({ code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json.' });
    const gzip = await rawRequest(server.mcpUrl, { headers: { ...auth, 'content-encoding': 'gzip' }, body: '{}' });
    expect(gzip.status).toBe(415);
    expect(rpcError(gzip).message).toBe('Content-Encoding gzip is not accepted: send the JSON uncompressed.');
  });

  it('every other refusal is JSON too, with nosniff and without X-Powered-By', async () => {
    const put = await rawRequest(server.mcpUrl, { method: 'PUT', headers: auth, body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('POST');
    expect(rpcError(put)).toEqual({ code: -32000, message: 'Method not allowed: PUT /mcp; this server is stateless, use POST.' });

    const unknown = await rawRequest(new URL('/nope', server.base), { method: 'GET' });
    expect(unknown.status).toBe(404);
    expectCleanJson(unknown);
    expect(JSON.parse(unknown.text)).toMatchObject({ success: false, error: { code: 'ROUTE_NOT_FOUND', status: 404 } });

    const badPath = await rawRequest(new URL('/api/v1/bits/%E0%A4%A/restore', server.base), { headers: { authorization: `Bearer ${server.token}` } });
    expect(badPath.status).toBe(400);
    expectCleanJson(badPath);
    expect(JSON.parse(badPath.text)).toMatchObject({ success: false, error: { code: 'MALFORMED_REQUEST', status: 400 } });

    const health = await rawRequest(new URL('/healthz', server.base), { method: 'GET' });
    expect(health.status).toBe(200);
    expectCleanJson(health);
  });

  it('serves protected-resource metadata (RFC 9728) naming the authorization server that runs here', async () => {
    const prm = await rawRequest(new URL('/.well-known/oauth-protected-resource/mcp', server.base), { method: 'GET' });
    expect(prm.status).toBe(200);
    expectCleanJson(prm);
    expect(JSON.parse(prm.text)).toEqual({
      resource: server.mcpUrl.href,
      authorization_servers: [server.base.origin],
      scopes_supported: ['waymark.author', 'waymark.read', 'waymark.run'],
      bearer_methods_supported: ['header'],
      resource_name: 'waymark',
    });
    expect(prm.headers['access-control-allow-origin']).toBe('*');
    // The server it names answers its metadata (RFC 8414), with endpoints that exist (issue 12's tests use them).
    const as = await rawRequest(new URL('/.well-known/oauth-authorization-server', server.base), { method: 'GET' });
    expect(as.status).toBe(200);
    expect(JSON.parse(as.text)).toMatchObject({ issuer: server.base.origin, code_challenge_methods_supported: ['S256'] });
  });

  it('starts without the SDK warning about an insecure issuer URL', async () => {
    const output = await serveStartOutput(engine);
    expect(output).toMatch(/listening on http:\/\//);
    expect(output).not.toMatch(/dangerouslyAllowInsecureIssuerUrl|Do not use in production/);
  });
});
