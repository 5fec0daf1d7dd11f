/**
 * One MCP client of the fault test over Streamable HTTP. A call answers the tool's envelope, or throws
 * when the transport fails (the server was killed): then nobody knows whether the write happened.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Envelope } from '../harness.js';

export class RemoteClient {
  private constructor(private readonly client: Client) {}

  static async connect(url: string, token: string): Promise<RemoteClient> {
    const client = new Client({ name: 'waymark-faults', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return new RemoteClient(client);
  }

  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<Envelope<T>> {
    const result = await this.client.callTool({ name, arguments: args });
    const envelope = result.structuredContent as Envelope<T> | undefined;
    if (!envelope || typeof envelope.success !== 'boolean') throw new ProtocolFault(`${name} answered without an envelope: ${JSON.stringify(result).slice(0, 300)}`);
    return envelope;
  }

  /** Closing after a kill must not wait on a dead server. */
  async close(): Promise<void> {
    await Promise.race([this.client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
  }
}

/** An answer that arrived but is not an envelope: a server fault, never a lost connection. */
export class ProtocolFault extends Error {}
