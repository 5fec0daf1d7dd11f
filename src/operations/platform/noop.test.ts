import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, startHarness, type Harness } from '../../../test/harness.js';

describe('the benchmark noop tool', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('sqlite');
  });
  afterAll(async () => h.close());

  it('is not offered unless WAYMARK_BENCH_NOOP=1', async () => {
    const { tools } = await h.owner.client.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('noop');
  });

  it('with WAYMARK_BENCH_NOOP=1 it is offered and answers an empty success', async () => {
    const before = process.env.WAYMARK_BENCH_NOOP;
    process.env.WAYMARK_BENCH_NOOP = '1';
    try {
      const client = await connectClient(h.services, h.owner.token);
      const { tools } = await client.client.listTools();
      expect(tools.map((t) => t.name)).toContain('noop');
      expect(await client.ok('noop')).toEqual({});
      const data = await client.ok<{ tools: Array<{ name: string }> }>('describe_platform');
      expect(data.tools.map((t) => t.name)).not.toContain('noop');
      const anonymous = await connectClient(h.services, undefined);
      expect((await anonymous.fail('noop')).code).toBe('UNAUTHENTICATED');
      await anonymous.close();
      await client.close();
    } finally {
      if (before === undefined) delete process.env.WAYMARK_BENCH_NOOP;
      else process.env.WAYMARK_BENCH_NOOP = before;
    }
  });
});
