/**
 * The stdio door (stdio-door.ts): its answer to `initialize` is the full server's, word for word, though it has
 * none of the tools; what comes before the full server is ready waits and is then answered by it, in order,
 * with no second answer to `initialize` and no list_changed notification. Driven over the SDK's in-memory
 * transport with raw JSON-RPC, so every message the client would read is seen.
 */
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { silentLogger, startHarness, type Harness } from '../../test/harness.js';
import { createMcpServer } from './server.js';
import { StdioDoor } from './stdio-door.js';

const CLIENT_CAPABILITIES = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

const initialize = (id: number, protocolVersion = '2025-06-18') => ({ jsonrpc: '2.0' as const, id, method: 'initialize', params: { protocolVersion, capabilities: CLIENT_CAPABILITIES, clientInfo: { name: 'door-test', version: '1' } } });

/** The client's end: what it sends, and every message it reads, in order. */
function clientEnd(transport: InMemoryTransport) {
  const read: JSONRPCMessage[] = [];
  const waiters: Array<() => void> = [];
  transport.onmessage = (message) => {
    read.push(message);
    for (const wake of waiters.splice(0)) wake();
  };
  const answer = async (id: number): Promise<Record<string, unknown>> => {
    for (;;) {
      const found = read.find((m) => 'id' in m && m.id === id && ('result' in m || 'error' in m));
      if (found) return found as Record<string, unknown>;
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { read, answer, send: (message: JSONRPCMessage) => transport.send(message) };
}

describe.each(ENGINES)('the stdio door on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  const fullServer = () =>
    createMcpServer(
      h.services,
      async () => {
        const actor = await h.services.auth.authenticate(h.owner.token);
        if (!actor) return null;
        const { expiresAt: _e, ...rest } = actor;
        return rest;
      },
      silentLogger,
    );

  it('answers initialize exactly as the full server does, for each protocol version', async () => {
    for (const version of ['2025-06-18', '2025-11-25', '1999-01-01']) {
      const [fullClient, fullWire] = InMemoryTransport.createLinkedPair();
      await fullServer().connect(fullWire);
      const full = clientEnd(fullClient);
      await fullClient.start();
      await full.send(initialize(1, version));

      const [doorClient, doorWire] = InMemoryTransport.createLinkedPair();
      const door = new StdioDoor(doorWire);
      await door.start();
      const early = clientEnd(doorClient);
      await doorClient.start();
      await early.send(initialize(1, version));

      expect(await early.answer(1)).toEqual(await full.answer(1));
      expect(await door.wanted).toBe(true);
      await door.close();
      await fullClient.close();
    }
  });

  it('holds what comes before the full server, then hands it over in order: no second answer, no list_changed', async () => {
    const [client, wire] = InMemoryTransport.createLinkedPair();
    const door = new StdioDoor(wire);
    const mismatches: string[] = [];
    door.onMismatch = (early, full) => mismatches.push(`${early} != ${full}`);
    await door.start();
    const end = clientEnd(client);
    await client.start();
    await end.send(initialize(1));
    await end.answer(1);
    await end.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await end.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await end.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'describe_platform', arguments: {} } });
    expect(await door.wanted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(end.read).toHaveLength(1);

    const server = fullServer();
    await door.open((transport) => server.connect(transport));
    const listed = (await end.answer(2)).result as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toContain('describe_platform');
    const called = (await end.answer(3)).result as { structuredContent: { success: boolean } };
    expect(called.structuredContent.success).toBe(true);
    // After the hand-over the full server answers directly.
    await end.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    expect((await end.answer(4)).result).toEqual({});

    expect(end.read.filter((m) => 'id' in m && m.id === 1)).toHaveLength(1);
    expect(end.read.filter((m) => !('id' in m))).toEqual([]);
    expect(mismatches).toEqual([]);
    // The full server saw the client's initialize: it knows what the client supports.
    expect(server.server.getClientCapabilities()).toEqual(CLIENT_CAPABILITIES);
    await door.close();
  });

  it('loads nothing for a client that leaves before it asks anything', async () => {
    const [client, wire] = InMemoryTransport.createLinkedPair();
    const door = new StdioDoor(wire);
    await door.start();
    await client.close();
    expect(await door.wanted).toBe(false);
    await door.closed;
  });
});
