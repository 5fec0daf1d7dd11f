/**
 * A real Waymark server on a real store, driven by the real SDK client over the SDK's in-memory
 * transport, authenticated by real tokens exactly as stdio authenticates them.
 */
import { Client, type ClientCapabilities } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { capabilityName, type CapabilityKind } from '../src/config.js';
import { createMcpServer } from '../src/mcp/server.js';
import { allTools } from '../src/operations/registry.js';
import type { Permission, PrincipalKind } from '../src/services/actor.js';
import { createServices, type Services } from '../src/services/index.js';
import { createTestStore, type Engine, type TestStore } from './engines.js';
import type { Registry } from '../src/operations/registry.js';

export interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data?: T;
  error?: { code: string; message: string; errorId: string; status: number; details?: Record<string, unknown> };
}

export interface ToolClient {
  client: Client;
  call<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<Envelope<T>>;
  /** Calls a tool that must succeed and returns its data. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail and returns its error. */
  fail(name: string, args?: Record<string, unknown>): Promise<NonNullable<Envelope['error']>>;
  close(): Promise<void>;
}

export const silentLogger = pino({ level: 'silent' });

/** Each tool's whole output schema, by name. */
const OUTPUTS = new Map(allTools().map((tool) => [tool.name, tool.output]));

/** How the test client presents itself: what it announces, and its handlers (elicitation) set before connecting. */
export interface ClientSetup {
  capabilities?: ClientCapabilities;
  setup?(client: Client): void;
  /** What the server serves, when not Waymark's own operations. */
  registry?: Registry;
}

export async function connectClient(services: Services, token: string | undefined, options: ClientSetup = {}): Promise<ToolClient> {
  const server = createMcpServer(
    services,
    async () => {
      if (!token) return null;
      const actor = await services.auth.authenticate(token);
      if (!actor) return null;
      const { expiresAt: _e, ...rest } = actor;
      return rest;
    },
    silentLogger,
    undefined,
    undefined,
    options.registry,
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'waymark-test', version: '1.0.0' }, options.capabilities ? { capabilities: options.capabilities } : undefined);
  options.setup?.(client);
  await client.connect(clientTransport);
  // With the list cached, the SDK client checks every answer's structuredContent against the tool's
  // outputSchema (the server does not check its own output again), so every test also proves the schemas.
  // tools/list gives only the outline of each answer (mcp/json-schema.ts, OUTLINE_DEPTH): every answer's data
  // is checked here against the tool's whole zod output schema too.
  await client.listTools();
  const call = async <T,>(name: string, args: Record<string, unknown> = {}): Promise<Envelope<T>> => {
    const result = await client.callTool({ name, arguments: args });
    const envelope = result.structuredContent as Envelope<T> | undefined;
    if (!envelope) throw new Error(`${name} answered without structuredContent: ${JSON.stringify(result)}`);
    const text = (result.content as Array<{ type: string; text?: string }>)[0];
    if (text?.type !== 'text' || JSON.stringify(JSON.parse(text.text ?? 'null')) !== JSON.stringify(envelope)) {
      throw new Error(`${name}: the text content is not the envelope`);
    }
    if (Boolean(result.isError) === envelope.success) throw new Error(`${name}: isError disagrees with success`);
    const output = OUTPUTS.get(name);
    if (envelope.success && output) {
      const checked = output.safeParse(envelope.data);
      if (!checked.success) throw new Error(`${name}: the answer does not fit the tool's output schema: ${checked.error.message.slice(0, 2000)}`);
    }
    return envelope;
  };
  return {
    client,
    call,
    async ok<T>(name: string, args?: Record<string, unknown>) {
      const envelope = await call<T>(name, args);
      if (!envelope.success) throw new Error(`${name} failed: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    },
    async fail(name: string, args?: Record<string, unknown>) {
      const envelope = await call(name, args);
      if (envelope.success) throw new Error(`${name} was expected to fail but answered ${JSON.stringify(envelope.data).slice(0, 500)}`);
      return envelope.error as NonNullable<Envelope['error']>;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

export interface Principal {
  token: string;
  principalId: string;
  client: ToolClient;
}

export interface Harness {
  engine: Engine;
  store: TestStore;
  services: Services;
  accountId: string;
  /** Admin, every capability, account level. */
  owner: Principal;
  principal(options?: { accountId?: string; permission?: Permission; capabilities?: CapabilityKind[]; scopeId?: string | null; kind?: PrincipalKind }): Promise<Principal>;
  close(): Promise<void>;
}

export async function startHarness(engine: Engine): Promise<Harness> {
  const store = await createTestStore(engine);
  const services = createServices(store.store);
  const clients: ToolClient[] = [];
  const accountId = await services.auth.createAccount('test account');
  const principal: Harness['principal'] = async (options = {}) => {
    const issued = await services.auth.createToken({
      accountId: options.accountId ?? accountId,
      permission: options.permission ?? 'admin',
      capabilities: (options.capabilities ?? ['author', 'read', 'run']).map(capabilityName),
      scopeId: options.scopeId ?? null,
      kind: options.kind ?? 'agent',
    });
    const client = await connectClient(services, issued.token);
    clients.push(client);
    return { token: issued.token, principalId: issued.principalId, client };
  };
  const owner = await principal();
  return {
    engine,
    store,
    services,
    accountId,
    owner,
    principal,
    async close() {
      for (const c of clients) await c.close();
      await store.close();
    },
  };
}
