/**
 * Issue 24, finding 1: a JSON-RPC batch undid the off-thread answers. A 2 KB batch of 100 get_bit of one 4 MB bit,
 * sent with a read-only token, held the event loop 5.5 s and added 1.2–2.9 GB; 100 describe_platform, which any
 * token may send, held it up to 1 s. Batches are refused whole now (MCP 2025-06-18 dropped them), before any
 * message of one runs: the server does no more for a batch than for a malformed request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_REFUSAL } from '../../src/http/mcp/route.js';
import { ENGINES } from '../engines.js';
import { HEALTH_BOUND_MS, LONG, MCP_HEADERS, memoryBound, ok, rawRequest, startHostileServer, underAttack, type HostileServer } from './harness.js';

const MB = 1024 * 1024;

const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe.each(ENGINES)('JSON-RPC batches on %s', (engine) => {
  let server: HostileServer;
  let readOnly: Record<string, string>;
  let bitId: string;
  beforeAll(async () => {
    server = await startHostileServer(engine);
    const token = await server.newToken({ permission: 'view', capabilities: ['waymark.read'] });
    readOnly = { ...MCP_HEADERS, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-06-18' };
    // Long form: the reported 4 MB bit; the short form keeps the same shape at a quarter of the size.
    const paragraph = 'A paragraph of an onboarding step, long enough to be worth reading twice. '.repeat(20);
    const body = `${paragraph}\n\n`.repeat(Math.ceil((LONG ? 4 : 1) * MB / (paragraph.length + 2)));
    bitId = String((await ok(server, 'add_bit', { bit_title: 'Large', bit_body: body })).bit_id);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('100 get_bit of a large bit in one batch, with a read-only token: refused at once, the loop and memory untouched', async () => {
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1, 'get_bit', { bit_id: bitId })));
    expect(batch.length).toBeLessThan(16 * 1024);
    const m = await underAttack(server, () => Promise.all(Array.from({ length: 4 }, () => rawRequest(server.mcpUrl, { headers: readOnly, body: batch }))));
    for (const res of m.result) {
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: BATCH_REFUSAL }, id: null });
    }
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
    expect(m.addedRss).toBeLessThan(memoryBound(batch.length * 4));
  });

  it('100 describe_platform in one batch is refused the same way, every time', async () => {
    const batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i + 1, 'describe_platform', {})));
    const m = await underAttack(server, async () => {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await rawRequest(server.mcpUrl, { headers: readOnly, body: batch }));
      return answers;
    });
    for (const res of m.result) expect(res.status).toBe(400);
    expect(m.maxHealthMs).toBeLessThan(HEALTH_BOUND_MS);
  });

  it('a batch of writes runs none of them, and one message alone still runs', async () => {
    const owner = { ...MCP_HEADERS, authorization: `Bearer ${server.token}`, 'mcp-protocol-version': '2025-06-18' };
    const titles = ['Batched one', 'Batched two'];
    const res = await rawRequest(server.mcpUrl, { headers: owner, body: JSON.stringify(titles.map((t, i) => call(i + 1, 'add_bit', { bit_title: t, bit_body: 'Text.' }))) });
    expect(res.status).toBe(400);
    const listed = (await ok(server, 'list_bits', { query: 'Batched' })) as { bits: Array<{ bit_title: string }> };
    expect(listed.bits).toEqual([]);
    const single = await rawRequest(server.mcpUrl, { headers: owner, body: JSON.stringify(call(1, 'add_bit', { bit_title: 'Batched alone', bit_body: 'Text.' })) });
    expect(single.status).toBe(200);
    expect((JSON.parse(single.text) as { result: { isError?: boolean } }).result.isError).toBeFalsy();
  });
});
