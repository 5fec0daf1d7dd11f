import { describe, expect, it } from 'vitest';
import { WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { assertTrailContextSchema, compiledSchemaCount, trailContextIssues } from './trail-context-schema.js';

function issuesOf(schema: unknown): Array<{ path: string; message: string }> {
  try {
    assertTrailContextSchema(schema);
  } catch (error) {
    expect(error).toBeInstanceOf(WaymarkError);
    expect((error as WaymarkError).code).toBe('INVALID_TRAIL_CONTEXT_SCHEMA');
    return (error as WaymarkError).details?.issues as Array<{ path: string; message: string }>;
  }
  return [];
}

const FULL = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Context',
  description: 'What a trail needs',
  type: 'object',
  properties: {
    customer: { type: 'string', title: 'Customer', minLength: 1, maxLength: 80 },
    due: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    amount: { type: 'number', minimum: 0, default: 10.5 },
    seats: { type: 'integer', maximum: 500 },
    urgent: { type: 'boolean', default: false },
    tier: { type: 'string', enum: ['gold', 'silver'], default: 'gold' },
    region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }, { const: 'us', title: 'USA' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, uniqueItems: true },
    labels: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }, { const: 'y', title: 'Y' }] } },
  },
  required: ['customer', 'due'],
  additionalProperties: false,
};

describe('trail_context_schema profile', () => {
  it('accepts every form of the profile', () => {
    expect(issuesOf(FULL)).toEqual([]);
    expect(issuesOf({ type: 'object' })).toEqual([]);
    expect(issuesOf({ type: 'object', properties: {} })).toEqual([]);
  });

  it('accepts oneOf for array items as well as anyOf', () => {
    expect(issuesOf({ type: 'object', properties: { tags: { type: 'array', items: { oneOf: [{ const: 'x', title: 'X' }] } } } })).toEqual([]);
  });

  it('names $ref where a property or array items use one', () => {
    expect(issuesOf({ type: 'object', properties: { a: { $ref: '#/$defs/a' }, b: { type: 'array', items: { $ref: '#/$defs/b' } } } })).toEqual([
      { path: 'trail_context_schema.properties.a.$ref', message: '$ref is not accepted (the profile has no references, so MCP elicitation can show the schema as it is); write the schema in place' },
      { path: 'trail_context_schema.properties.b.items.$ref', message: '$ref is not accepted (the profile has no references, so MCP elicitation can show the schema as it is); write the schema in place' },
    ]);
  });

  it('refuses what lies outside, with every issue and its path', () => {
    expect(issuesOf([])).toEqual([{ path: 'trail_context_schema', message: 'trail_context_schema must be a JSON Schema object' }]);
    expect(issuesOf({ type: 'array' }).map((i) => i.path)).toEqual(['trail_context_schema.type']);
    expect(issuesOf({ type: 'object', $ref: '#/x', $defs: {} }).map((i) => i.path)).toEqual(['trail_context_schema.$ref', 'trail_context_schema.$defs']);
    expect(issuesOf({ type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' }).map((i) => i.path)).toEqual(['trail_context_schema.$schema']);
    const nested = issuesOf({ type: 'object', properties: { a: { type: 'object', properties: {} } } });
    expect(nested.map((i) => i.path)).toEqual(['trail_context_schema.properties.a.type']);
    expect(nested[0].message).toContain('objects cannot nest');
    const many = issuesOf({
      type: 'object',
      properties: {
        a: { type: 'string', format: 'ipv4' },
        b: { type: 'string', pattern: '^x' },
        c: { type: 'number', default: 'x' },
        d: { type: 'integer', default: 1.5 },
        e: { type: 'string', enum: [] },
        f: { type: 'string', oneOf: [{ const: 1, title: 'one' }, { title: 'no const' }] },
        g: { type: 'array', items: { type: 'number' } },
        h: { type: 'array', items: { type: 'string' } },
        i: { type: 'string', enum: ['x'], default: 'y' },
        j: { anyOf: [{ type: 'string' }] },
        k: 'string',
        l: { type: 'string', enum: ['a', 'a'] },
        m: { type: 'string', minLength: -1 },
      },
      required: ['a', 'zz'],
      additionalProperties: {},
    });
    expect(many.find((i) => i.path === 'trail_context_schema.properties.h.items')?.message).toBe('array items must be a string enum, or an anyOf or oneOf of {const, title}');
    expect(many.map((i) => i.path)).toEqual([
      'trail_context_schema.additionalProperties',
      'trail_context_schema.properties.a.format',
      'trail_context_schema.properties.b.pattern',
      'trail_context_schema.properties.c.default',
      'trail_context_schema.properties.d.default',
      'trail_context_schema.properties.e.enum',
      'trail_context_schema.properties.f.oneOf[0].const',
      'trail_context_schema.properties.f.oneOf[1].const',
      'trail_context_schema.properties.g.items.type',
      'trail_context_schema.properties.g.items',
      'trail_context_schema.properties.h.items',
      'trail_context_schema.properties.i.default',
      'trail_context_schema.properties.j.type',
      'trail_context_schema.properties.k',
      'trail_context_schema.properties.l.enum',
      'trail_context_schema.properties.m.minLength',
      'trail_context_schema.required',
    ]);
  });
});

describe('trail_context against its schema', () => {
  it('accepts a fitting context', () => {
    expect(trailContextIssues(FULL, { customer: 'ACME', due: '2025-02-28', tags: ['a'], region: 'eu', labels: ['x', 'y'], seats: 3, urgent: true })).toEqual([]);
  });

  it('reports every problem with its path; the formats are enforced', () => {
    const issues = trailContextIssues(FULL, {
      due: '2025-02-30',
      at: 'yesterday',
      email: 'not-an-email',
      site: 'no scheme',
      amount: 'ten',
      seats: 1.5,
      urgent: 'yes',
      tier: 'bronze',
      region: 'asia',
      tags: ['c'],
      extra: 1,
    });
    // Sorted by path then message, whatever order the schema's keys are stored in (jsonb re-sorts them).
    expect(issues.map((i) => i.path)).toEqual([
      'trail_context.amount',
      'trail_context.at',
      'trail_context.customer',
      'trail_context.due',
      'trail_context.email',
      'trail_context.extra',
      'trail_context.region',
      'trail_context.seats',
      'trail_context.site',
      'trail_context.tags[0]',
      'trail_context.tier',
      'trail_context.urgent',
    ]);
    const reordered = Object.fromEntries(Object.entries(FULL.properties).reverse());
    expect(trailContextIssues({ ...FULL, required: ['due', 'customer'], properties: reordered }, { due: 'x', seats: 1.5, tier: 'bronze' })).toEqual(
      trailContextIssues(FULL, { due: 'x', seats: 1.5, tier: 'bronze' }),
    );
    expect(issues.find((i) => i.path === 'trail_context.customer')?.message).toBe('is required');
    expect(issues.find((i) => i.path === 'trail_context.tier')?.message).toContain('gold, silver');
    expect(issues.find((i) => i.path === 'trail_context.region')?.message).toContain('eu, us');
  });

  it('refuses a context that is not an object', () => {
    expect(trailContextIssues({ type: 'object' }, 'text').map((i) => i.path)).toEqual(['trail_context']);
  });
});

describe('trail_context_schema bounds (issue 16, finding 5)', () => {
  const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string' }]));

  it('refuses more properties, more choices or more bytes than the bounds, before compiling', () => {
    expect(issuesOf({ type: 'object', properties: props(LIMITS.contextSchemaProperties) })).toEqual([]);
    expect(issuesOf({ type: 'object', properties: props(LIMITS.contextSchemaProperties + 1) })).toEqual([
      { path: 'trail_context_schema.properties', message: `at most ${LIMITS.contextSchemaProperties} properties` },
    ]);
    const choices = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
    expect(issuesOf({ type: 'object', properties: { c: { type: 'string', enum: choices(LIMITS.contextSchemaChoices) } } })).toEqual([]);
    expect(issuesOf({ type: 'object', properties: { c: { type: 'string', enum: choices(LIMITS.contextSchemaChoices + 1) } } })).toEqual([
      { path: 'trail_context_schema.properties.c.enum', message: `at most ${LIMITS.contextSchemaChoices} choices` },
    ]);
    const options = choices(LIMITS.contextSchemaChoices + 1).map((c) => ({ const: c, title: c }));
    expect(issuesOf({ type: 'object', properties: { m: { type: 'array', items: { anyOf: options } } } })).toEqual([
      { path: 'trail_context_schema.properties.m.items.anyOf', message: `at most ${LIMITS.contextSchemaChoices} choices` },
    ]);
    const [big] = issuesOf({ type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(LIMITS.contextSchemaBytes) } } });
    expect(big).toEqual({ path: 'trail_context_schema', message: `too large: trail_context_schema is over ${LIMITS.contextSchemaBytes} bytes as JSON; the profile is flat and small` });
  });

  it('lists at most 50 issues and counts them all; the message stays bounded', () => {
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: 'object' }])) };
    try {
      assertTrailContextSchema(schema);
      expect.unreachable();
    } catch (error) {
      const e = error as WaymarkError;
      expect(e.details?.issues).toHaveLength(LIMITS.issuesPerError);
      expect(e.details?.issue_count).toBe(80);
      expect(e.message.length).toBeLessThanOrEqual(LIMITS.errorMessageLength);
      expect(e.message.endsWith('required: [...]}.')).toBe(true);
    }
  });

  it('keeps a bounded number of compiled validators, one per distinct schema whatever its key order', () => {
    for (let i = 0; i < 150; i++) {
      assertTrailContextSchema({ type: 'object', properties: { [`f${i}`]: { type: 'integer' } } });
      expect(compiledSchemaCount()).toBeLessThanOrEqual(64);
    }
    const before = compiledSchemaCount();
    const a = { type: 'object', properties: { x: { type: 'integer', minimum: 1 } }, required: ['x'] };
    const b = { required: ['x'], properties: { x: { minimum: 1, type: 'integer' } }, type: 'object' };
    expect(trailContextIssues(a, { x: 0 })).toEqual(trailContextIssues(b, { x: 0 }));
    expect(compiledSchemaCount()).toBe(before + 1);
  });
});
