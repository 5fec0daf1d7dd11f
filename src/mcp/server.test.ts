import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/engines.js';
import { connectClient, startHarness, type Harness } from '../../test/harness.js';

describe.each(ENGINES)('MCP server on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  it('describe_platform answers the caller, limits, tools and error codes', async () => {
    const data = await h.owner.client.ok<Record<string, unknown>>('describe_platform');
    expect(data.brand).toBe('waymark');
    expect(data.account).toEqual({ account_id: h.accountId, name: 'test account' });
    expect(data.capabilities).toEqual(['waymark.author', 'waymark.read', 'waymark.run']);
    expect(data.anchor_scheme).toBe('waymark-node:');
    expect((data.limits as Record<string, number>).title).toBe(256);
    const codes = (data.error_codes as Array<{ code: string; status: number }>).map((c) => c.code);
    expect(codes).toContain('BIT_CONTENT_LOSS');
    expect(codes).toContain('INTERNAL_ERROR');
    const tools = data.tools as Array<{ name: string; allowed: boolean }>;
    expect(tools.find((t) => t.name === 'describe_platform')?.allowed).toBe(true);
  });

  it('refuses every tool without a valid token: UNAUTHENTICATED', async () => {
    for (const token of [undefined, 'waymark_not-a-real-token']) {
      const client = await connectClient(h.services, token);
      const error = await client.fail('describe_platform');
      expect(error.code).toBe('UNAUTHENTICATED');
      expect(error.status).toBe(401);
      expect(error.errorId).toMatch(/^[0-9a-f-]{36}$/);
      await client.close();
    }
  });

  it('refuses an expired token', async () => {
    const issued = await h.services.auth.createToken({ accountId: h.accountId, permission: 'admin', capabilities: ['waymark.read'], expiresInMs: 1 });
    await new Promise((r) => setTimeout(r, 5));
    const client = await connectClient(h.services, issued.token);
    expect((await client.fail('describe_platform')).code).toBe('UNAUTHENTICATED');
    await client.close();
  });

  it('stores tokens only as hashes', async () => {
    const rows = await h.store.store.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.token_hash).not.toBe(h.owner.token);
    }
  });

  it('refuses an argument that no tool declares (a typo would otherwise be dropped silently): VALIDATION_ERROR', async () => {
    const { tools } = await h.owner.client.client.listTools();
    for (const tool of tools) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      const error = await h.owner.client.fail(tool.name, { no_such_argument: 1 });
      expect(error.code, tool.name).toBe('VALIDATION_ERROR');
      expect(error.message, tool.name).toContain('no_such_argument');
    }
  });

  it('lists every tool with annotations from its flags and an output schema', async () => {
    const { tools } = await h.owner.client.client.listTools();
    for (const tool of tools) {
      expect(tool.annotations?.openWorldHint).toBe(false);
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {})).toEqual(['success', 'data', 'error']);
    }
  });
});

describe('describe_platform element types', () => {
  it('lists each element type with its allowed props, items and answer shape, from the definitions', async () => {
    const { ELEMENTS, ELEMENT_TYPES, allowedProps } = await import('../content/index.js');
    const h = await startHarness('sqlite');
    try {
      const data = await h.owner.client.ok<{ element_types: Array<{ type: string; step_type: string | null; allowed_props: string[] }>; body_syntax: unknown[] }>('describe_platform');
      expect(data.element_types.map((e) => e.type)).toEqual([...ELEMENT_TYPES]);
      for (const described of data.element_types) {
        expect(described.allowed_props).toEqual(allowedProps(described.type as (typeof ELEMENT_TYPES)[number]));
        expect(described.step_type).toBe(ELEMENTS[described.type as (typeof ELEMENT_TYPES)[number]].stepType);
      }
      expect(data.element_types.find((e) => e.type === 'text-area')?.allowed_props).toContain('validationPattern');
      expect(data.body_syntax.length).toBeGreaterThan(5);
    } finally {
      await h.close();
    }
  });
});
