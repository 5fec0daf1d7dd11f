/**
 * tools/list served from the listing serialized once per process: which requests it answers (the plain
 * 2025-era request and nothing else), and that its answer is the SDK's own answer, for a plain client and
 * for one that announced MCP Apps. Real HTTP app, real store.
 */
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/server';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { plainToolsListId } from './listing.js';

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };

function request(body: unknown, headers: Record<string, string | undefined> = HEADERS): Request {
  return { headers, body } as unknown as Request;
}

describe('the plain tools/list request', () => {
  it('is one 2025-era request with no params or empty ones, a string or integer id, and headers the transport accepts', () => {
    expect(plainToolsListId(request({ jsonrpc: '2.0', id: 7, method: 'tools/list' }))).toBe(7);
    expect(plainToolsListId(request({ jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} }))).toBe('a');
    expect(plainToolsListId(request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, 'mcp-protocol-version': undefined }))).toBe(1);
  });

  it('is not anything the SDK must see: a cursor, _meta, a batch, a notification, another method or field, a header it refuses', () => {
    const refused = [
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } }),
      request([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]),
      request({ jsonrpc: '2.0', method: 'tools/list' }),
      request({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }),
      request({ jsonrpc: '2.0', id: null, method: 'tools/list' }),
      request({ jsonrpc: '1.0', id: 1, method: 'tools/list' }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list', extra: true }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, accept: 'application/json' }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, 'content-type': 'text/plain' }),
      request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }),
    ];
    for (const req of refused) expect(plainToolsListId(req)).toBeUndefined();
  });
});

describe('tools/list over stateless HTTP', () => {
  let h: Harness;
  let web: WebServer;
  beforeAll(async () => {
    h = await startHarness('sqlite');
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    await web?.close();
    await h?.close();
  });

  const post = async (token: string, body: unknown, headers: Record<string, string> = HEADERS) => {
    const response = await fetch(new URL('/mcp', web.origin), { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
  };

  // `_meta` in params sends the same request through the SDK's own handler.
  const bothWays = async (token: string) => {
    const served = await post(token, { jsonrpc: '2.0', id: 'list-1', method: 'tools/list' });
    const sdk = await post(token, { jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: { _meta: {} } });
    return { served, sdk };
  };

  it('answers what the SDK answers, for a plain client', async () => {
    const { served, sdk } = await bothWays(h.owner.token);
    expect(served.status).toBe(200);
    expect(served.type).toMatch(/^application\/json/);
    expect((served.body.result as { tools: unknown[] }).tools.length).toBeGreaterThan(20);
    expect(served).toEqual(sdk);
  });

  it('answers what the SDK answers, for a client that announced MCP Apps: the trail tools declare the step form', async () => {
    const other = await h.principal();
    const init = await post(other.token, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: APPS, clientInfo: { name: 'apps', version: '1' } } });
    expect(init.status).toBe(200);
    const { served, sdk } = await bothWays(other.token);
    const tools = (served.body.result as { tools: { _meta?: { ui?: unknown } }[] }).tools;
    expect(tools.some((tool) => tool._meta?.ui !== undefined)).toBe(true);
    expect(served).toEqual(sdk);
  });

  it('leaves a request with a header the transport refuses to the SDK, which refuses it', async () => {
    const wrongAccept = await post(h.owner.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, accept: 'application/json' });
    expect(wrongAccept.status).toBe(406);
    const wrongVersion = await post(h.owner.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ...HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(wrongVersion.status).toBe(400);
    expect(JSON.stringify(wrongVersion.body)).toContain('Unsupported protocol version');
  });
});
