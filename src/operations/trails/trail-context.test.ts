/**
 * trail_context_schema through the tools: TRAIL_CONTEXT_INVALID issues in one order on both engines
 * (PostgreSQL's jsonb stores the schema's keys re-sorted), and profile messages that name what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { makeBit } from '../../../test/bit-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';

describe.each(ENGINES)('trail_context_schema through the tools on %s', (engine) => {
  let h: Harness;
  let startBit: string;
  beforeAll(async () => {
    h = await startHarness(engine);
    startBit = await makeBit(h, { title: 'Context start' });
  });
  afterAll(async () => h.close());

  it('TRAIL_CONTEXT_INVALID lists its issues by path, then message, whatever order the schema gives its keys', async () => {
    // Declared order zeta, alpha_long_name, mid; jsonb keeps mid, zeta, alpha_long_name (shorter keys first).
    const schema = {
      type: 'object',
      properties: { zeta: { type: 'integer' }, alpha_long_name: { type: 'string', format: 'date' }, mid: { type: 'string', enum: ['a', 'b'] } },
      required: ['zeta', 'mid'],
    };
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Ordered issues', start_bit_id: startBit, trail_context_schema: schema });
    const error = await h.owner.client.fail('start_trail', { flow_id, trail_context: { alpha_long_name: '2025-02-30', zeta: 'x', mid: 'c' } });
    expect(error).toMatchObject({ code: 'TRAIL_CONTEXT_INVALID', status: 422 });
    expect(error.details?.issues).toEqual([
      { path: 'trail_context.alpha_long_name', message: 'must be a date, like 2026-12-01' },
      { path: 'trail_context.mid', message: 'must be one of: a, b' },
      { path: 'trail_context.zeta', message: 'must be a whole number' },
    ]);
    expect(error.message).toBe(
      'trail_context does not fit the flow\'s trail_context_schema (get_flow shows it): trail_context.alpha_long_name must be a date, like 2026-12-01; trail_context.mid must be one of: a, b; trail_context.zeta must be a whole number',
    );
    const missing = await h.owner.client.fail('start_trail', { flow_id, trail_context: {} });
    expect(missing.details?.issues).toEqual([
      { path: 'trail_context.mid', message: 'is required' },
      { path: 'trail_context.zeta', message: 'is required' },
    ]);
  });

  it('a $ref is named as such, and array items may be an anyOf or a oneOf of {const, title}', async () => {
    const refused = await h.owner.client.fail('create_flow', {
      flow_title: 'Refs',
      start_bit_id: startBit,
      trail_context_schema: { type: 'object', properties: { who: { $ref: '#/$defs/who' }, tags: { type: 'array', items: { type: 'string' } } } },
    });
    expect(refused.code).toBe('INVALID_TRAIL_CONTEXT_SCHEMA');
    expect(refused.details?.issues).toEqual([
      { path: 'trail_context_schema.properties.who.$ref', message: '$ref is not accepted (the profile has no references, so MCP elicitation can show the schema as it is); write the schema in place' },
      { path: 'trail_context_schema.properties.tags.items', message: 'array items must be a string enum, or an anyOf or oneOf of {const, title}' },
    ]);
    const oneOf = { type: 'array', items: { oneOf: [{ const: 'x', title: 'X' }, { const: 'y', title: 'Y' }] } };
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'oneOf items', start_bit_id: startBit, trail_context_schema: { type: 'object', properties: { tags: oneOf } } });
    expect((await h.owner.client.ok<{ trail_context: unknown }>('start_trail', { flow_id, trail_context: { tags: ['y'] } })).trail_context).toEqual({ tags: ['y'] });
  });
});
