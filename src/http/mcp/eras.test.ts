/**
 * Both protocol eras on /mcp (issue 25): a client that tries 2026-07-28 first is served in that era at once,
 * with no refusal and no fallback round trip; a 2025-era client is served as before; the tools, their actor
 * and their results are the same. Real HTTP app, real store, real clients: the SDK's v2 client in each era, the
 * v1 SDK's client, and the AI SDK's MCP client (which probes with server/discover first). Every request each
 * client sends is recorded, with the status it got.
 */
import { createMCPClient, mcpAppClientCapabilities } from '@ai-sdk/mcp';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { LIMITS } from '../../limits/index.js';
import { allTools } from '../../operations/registry.js';
import { BATCH_REFUSAL } from './route.js';

/** The trail tools that put a person in front of a step (their declarations' stepForm). */
const STEP_TOOLS: ReadonlySet<string> = new Set(['start_trail', 'get_trail', 'advance_trail', 'transfer_step']);

const MODERN = '2026-07-28';
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };

interface Sent {
  method: string;
  /** The JSON-RPC method of a POST, or the HTTP method. */
  rpc: string;
  version: string | null;
  status: number;
}

/** A fetch that records every request a client sends and the status it gets. */
function recordingFetch(): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
      sent.push({ method: init?.method ?? 'GET', rpc: body?.method ?? init?.method ?? 'GET', version: new Headers(init?.headers).get('mcp-protocol-version'), status: response.status });
      return response;
    },
  };
}

interface Envelope {
  success: boolean;
  data?: { principal?: { principal_id: string }; client_features?: { step_form: string }; bit_body?: string };
}

describe.each(ENGINES)('both protocol eras on /mcp, on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let url: URL;
  let bitId: string;
  const auth = () => ({ Authorization: `Bearer ${h.owner.token}` });
  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    url = new URL('/mcp', web.origin);
    bitId = (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Eras', bit_body: 'Served in both eras.' })).bit_id;
  });
  afterAll(async () => {
    await web?.close();
    await h?.close();
  });

  const v2 = async (mode: 'legacy' | 'auto' | { pin: string }, capabilities?: ClientCapabilities) => {
    const recorded = recordingFetch();
    const client = new Client({ name: 'eras-v2', version: '1.0.0' }, { versionNegotiation: { mode }, ...(capabilities ? { capabilities } : {}) });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: auth() }, fetch: recorded.fetch }));
    return { client, sent: recorded.sent };
  };

  /** tools/list, describe_platform and get_bit through `client`, as each era's client answers them. */
  const exercise = async (client: Client | V1Client) => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(allTools().map((t) => t.name).sort());
    const platform = (await client.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as Envelope;
    expect(platform.success).toBe(true);
    expect(platform.data?.principal?.principal_id).toBe(h.owner.principalId);
    const bit = (await client.callTool({ name: 'get_bit', arguments: { bit_id: bitId } })).structuredContent as Envelope;
    expect(bit.success).toBe(true);
    expect(bit.data?.bit_body).toContain('Served in both eras.');
    return { tools, platform };
  };

  it('the v2 client negotiating (auto) is served 2026-07-28 from its first request: no 400, no initialize', async () => {
    const { client, sent } = await v2('auto');
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    await exercise(client);
    await client.close();
    expect(sent.map((s) => `${s.rpc} ${s.status}`)).toEqual(['server/discover 200', 'tools/list 200', 'tools/call 200', 'tools/call 200']);
    expect(sent.every((s) => s.version === MODERN)).toBe(true);
  });

  it('the v2 client pinned to 2026-07-28 is served in that era', async () => {
    const { client, sent } = await v2({ pin: MODERN });
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    await exercise(client);
    await client.close();
    expect(sent.every((s) => s.status === 200 && s.rpc !== 'initialize')).toBe(true);
  });

  it('the v2 client in the 2025 era (its default) is served as before', async () => {
    const { client, sent } = await v2('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    await exercise(client);
    await client.close();
    expect(sent[0]).toMatchObject({ rpc: 'initialize', status: 200 });
    expect(sent.some((s) => s.rpc === 'server/discover')).toBe(false);
  });

  it('the v1 SDK client (2025 era only) is served as before', async () => {
    const recorded = recordingFetch();
    const client = new V1Client({ name: 'eras-v1', version: '1.0.0' });
    const transport = new V1Transport(url, { requestInit: { headers: auth() }, fetch: recorded.fetch });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe('2025-11-25');
    await exercise(client);
    await client.close();
    expect(recorded.sent[0]).toMatchObject({ rpc: 'initialize', status: 200 });
    expect(recorded.sent.filter((s) => s.method === 'POST').every((s) => s.status < 300)).toBe(true);
  });

  it('the AI SDK client, which tries 2026-07-28 first, is served in that era without falling back', async () => {
    const recorded = recordingFetch();
    const client = await createMCPClient({ transport: { type: 'http', url: url.href, headers: auth(), fetch: recorded.fetch } });
    expect(client.initializeResult.protocolVersion).toBe(MODERN);
    const tools = await client.tools();
    expect(Object.keys(tools).sort()).toEqual(allTools().map((t) => t.name).sort());
    const platform = (await client.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as Envelope;
    expect(platform.data?.principal?.principal_id).toBe(h.owner.principalId);
    expect(platform.data?.client_features).toBeUndefined();
    const bit = (await client.callTool({ name: 'get_bit', arguments: { bit_id: bitId } })).structuredContent as Envelope;
    expect(bit.data?.bit_body).toContain('Served in both eras.');
    await client.close();
    expect(recorded.sent.map((s) => `${s.rpc} ${s.status}`)).toEqual(['server/discover 200', 'tools/list 200', 'tools/call 200', 'tools/call 200']);
  });

  it('per-request capabilities: a 2026-07-28 client declaring MCP Apps gets the step form, on every request, with no initialize', async () => {
    const declared = (tools: Array<{ name: string; _meta?: Record<string, unknown> }>) => tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name).sort();
    const apps = await v2('auto', APPS);
    const plain = await v2('auto');
    const ai = await createMCPClient({ transport: { type: 'http', url: url.href, headers: auth() }, capabilities: mcpAppClientCapabilities });
    try {
      // One token, three clients: what each request declares decides, not what the token's client said last.
      for (const round of [1, 2]) {
        expect(declared((await apps.client.listTools()).tools), `round ${round}`).toEqual([...STEP_TOOLS].sort());
        expect(declared((await plain.client.listTools()).tools), `round ${round}`).toEqual([]);
        expect(declared((await ai.listTools()).tools), `round ${round}`).toEqual([...STEP_TOOLS].sort());
      }
      const features = async (client: Client) => ((await client.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as Envelope).data?.client_features;
      expect((await features(apps.client))?.step_form).toBe('app');
      expect(await features(plain.client)).toBeUndefined();
      expect((((await ai.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as Envelope).data?.client_features)?.step_form).toBe('app');
      expect([...apps.sent, ...plain.sent].some((s) => s.rpc === 'initialize')).toBe(false);
    } finally {
      await Promise.all([apps.client.close(), plain.client.close(), ai.close()]);
    }
  });

  describe('a 2026-07-28 request meets the limits of the 2025 era', () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const message = (id: number, method: string) => ({ jsonrpc: '2.0', id, method, params: { _meta: meta } });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list', ...auth(), ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });

    it('served as one JSON answer', async () => {
      const response = await post(message(1, 'tools/list'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await response.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(allTools().length);
    });

    it('without a token: 401', async () => {
      expect((await post(message(1, 'tools/list'), { Authorization: '' })).status).toBe(401);
    });

    it('a batch: refused whole', async () => {
      const response = await post([message(1, 'tools/list'), message(2, 'tools/list')]);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(BATCH_REFUSAL);
    });

    it('a body over the limit: 413 before it is parsed', async () => {
      const response = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${JSON.stringify(meta)},"pad":"${'x'.repeat(LIMITS.mcpRequestBytes)}"}}`);
      expect(response.status).toBe(413);
    });

    it('subscriptions/listen, a stream held open: refused as the GET stream is', async () => {
      const response = await post(message(7, 'subscriptions/listen'), { 'mcp-method': 'subscriptions/listen' });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ id: 7, error: { code: -32601 } });
    });

    it('an era this server does not speak: the SDK names the one it does', async () => {
      const response = await post({ ...message(1, 'tools/list'), params: { _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } } }, { 'mcp-protocol-version': '2099-01-01' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { data: { supported: [MODERN] } } });
    });
  });
});
