import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startHarness, type Harness } from '../../../test/harness.js';
import { createRegistry, REGISTRY } from '../registry.js';
import { noopTool } from './noop.js';

describe('the benchmark noop tool', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(async () => h.close());

  it('is in no registry of Waymark\'s own, whatever the environment says', async () => {
    expect(REGISTRY.operations.map((o) => o.name)).not.toContain('noop');
    const { tools } = await h.owner.client.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('noop');
  });

  it('a server given it as an extra operation offers it, answers an empty success, and still checks the token', async () => {
    const registry = createRegistry([noopTool]);
    const client = await connectClient(h.services, h.owner.token, { registry });
    const { tools } = await client.client.listTools();
    expect(tools.map((t) => t.name)).toContain('noop');
    expect(await client.ok('noop')).toEqual({});
    const data = await client.ok<{ tools: Array<{ name: string }> }>('describe_platform');
    expect(data.tools.map((t) => t.name)).not.toContain('noop');
    const anonymous = await connectClient(h.services, undefined, { registry });
    expect((await anonymous.fail('noop')).code).toBe('UNAUTHENTICATED');
    await anonymous.close();
    await client.close();
  });

  it('a registry refuses two operations of one name', () => {
    expect(() => createRegistry([REGISTRY.tools[1] as (typeof REGISTRY.tools)[number]])).toThrow(/two operations are named/);
  });
});
