/**
 * Stateless HTTP and MCP Apps (issue 14): a 2025-era client announces MCP Apps once, in initialize; its later
 * requests, each served by a fresh server, still see the trail tools declare the step form, while another
 * client of the same server (another token) sees the plain tools. Real SDK clients over a real HTTP app.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { ClientMemory } from './clients.js';

/** The trail tools that put a person in front of a step (their declarations' stepForm). */
const STEP_TOOLS: ReadonlySet<string> = new Set(['start_trail', 'get_trail', 'advance_trail', 'transfer_step']);

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };

describe('MCP Apps over stateless HTTP', () => {
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

  const connect = async (token: string, capabilities?: typeof APPS) => {
    const client = new Client({ name: 'http-apps', version: '1.0.0' }, capabilities ? { capabilities } : undefined);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', web.origin), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };

  it('the client that announced MCP Apps in initialize gets the step form on every later request; another does not', async () => {
    const other = await h.principal();
    const apps = await connect(h.owner.token, APPS);
    const plain = await connect(other.token);
    const declared = (await apps.listTools()).tools.filter((t) => t._meta?.ui !== undefined).map((t) => t.name);
    expect(declared.sort()).toEqual([...STEP_TOOLS].sort());
    expect((await plain.listTools()).tools.some((t) => t._meta !== undefined)).toBe(false);
    const platform = (await apps.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as { data: { client_features?: { step_form: string } } };
    expect(platform.data.client_features?.step_form).toBe('app');
    await apps.close();
    await plain.close();
  });

  it('forgets a client a day after its last initialize, and keeps at most its bound', () => {
    let now = 0;
    const memory = new ClientMemory(() => now);
    memory.observe('a', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: APPS } });
    memory.observe('a', { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(memory.recall('a')).toEqual(APPS);
    expect(memory.recall('b')).toBeUndefined();
    now = 24 * 3600 * 1000 + 1;
    expect(memory.recall('a')).toBeUndefined();
    for (let i = 0; i <= 10_000; i++) memory.observe(`k${i}`, { method: 'initialize', params: { capabilities: {} } });
    expect(memory.recall('k0')).toBeUndefined();
    expect(memory.recall('k10000')).toEqual({});
  });
});
