/**
 * The two transports end to end: `waymark serve` and `waymark stdio` as child processes, driven by the
 * real SDK client over Streamable HTTP and over stdio, on each engine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';

const BIN = new URL('../bin/waymark.js', import.meta.url).pathname;

async function startServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

describe.each(ENGINES)('transports on %s', (engine) => {
  let ts: TestStore;
  let token: string;
  let readOnlyToken: string;
  let serve: { child: ChildProcess; url: string };

  beforeAll(async () => {
    ts = await createTestStore(engine);
    const services = createServices(ts.store);
    const first = await services.auth.init();
    token = first.token?.token ?? '';
    readOnlyToken = (await services.auth.createToken({ accountId: first.accountId, permission: 'view', capabilities: ['waymark.read'] })).token;
    serve = await startServe(ts.env);
  });
  afterAll(async () => {
    serve.child.kill('SIGTERM');
    await once(serve.child, 'exit');
    await ts.close();
  });

  it('serves MCP over Streamable HTTP with a bearer token', async () => {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('describe_platform');
    const result = await client.callTool({ name: 'describe_platform', arguments: {} });
    expect((result.structuredContent as { success: boolean }).success).toBe(true);
    await client.close();
  });

  it('answers 401 with WWW-Authenticate without a token or with a wrong one', async () => {
    for (const auth of [undefined, 'Bearer nope']) {
      const response = await fetch(serve.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata=/);
    }
  });

  it('serves protected-resource metadata and /healthz', async () => {
    const base = new URL(serve.url);
    const prm = (await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', base))).json()) as { resource: string };
    expect(prm.resource).toBe(serve.url);
    const health = await (await fetch(new URL('/healthz', base))).json();
    expect(health).toMatchObject({ status: 'ok', engine });
  });

  it('validates the HTTP headers of a call: MCP-Protocol-Version, Accept, Content-Type', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(serve.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await post({ 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await post({ accept: 'text/html' })).status).toBe(406);
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post({})).status).toBe(200);
  });

  it('refuses a foreign Host header (DNS-rebinding protection)', async () => {
    // fetch does not let a caller set Host, so this request goes through node:http.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(serve.url, { method: 'POST', headers: { host: 'evil.example', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(status).toBe(403);
  });

  it('serves MCP over stdio with WAYMARK_TOKEN, and UNAUTHENTICATED without it', async () => {
    for (const [tok, expected] of [[token, true], [undefined, false]] as const) {
      const client = new Client({ name: 'stdio-test', version: '1.0.0' });
      const env: Record<string, string> = { ...(process.env as Record<string, string>), ...ts.env, WAYMARK_LOG_LEVEL: 'silent' };
      if (tok) env.WAYMARK_TOKEN = tok;
      else delete env.WAYMARK_TOKEN;
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'ignore' }));
      const result = await client.callTool({ name: 'describe_platform', arguments: {} });
      const envelope = result.structuredContent as { success: boolean; error?: { code: string } };
      expect(envelope.success).toBe(expected);
      if (!expected) expect(envelope.error?.code).toBe('UNAUTHENTICATED');
      await client.close();
    }
  });

  it('a client that negotiates is served 2026-07-28, over Streamable HTTP and over stdio', async () => {
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...ts.env, WAYMARK_LOG_LEVEL: 'silent', WAYMARK_TOKEN: token };
    const transports = [
      new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'stdio'], env, stderr: 'ignore' }),
    ];
    for (const transport of transports) {
      const client = new Client({ name: 'era-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(transport);
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_platform');
      const result = await client.callTool({ name: 'describe_platform', arguments: {} });
      expect((result.structuredContent as { success: boolean }).success).toBe(true);
      await client.close();
    }
  });

  it('a read-only token is FORBIDDEN on a tool that needs more', async () => {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.url), { requestInit: { headers: { Authorization: `Bearer ${readOnlyToken}` } } }));
    const data = (await client.callTool({ name: 'describe_platform', arguments: {} })).structuredContent as { data: { permission?: string; principal: { permission: string } } };
    expect(data.data.principal.permission).toBe('view');
    await client.close();
  });
});
