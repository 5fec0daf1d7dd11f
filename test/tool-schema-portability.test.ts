/**
 * The schemas in tools/list are portable (issue "What an agent pays to use Waymark"): the two findings the
 * MCP Inspector's `--strict` check reports, checked here on every tool so a new field cannot bring them back.
 *
 * - `type` given as an array (a nullable field written `["string", "null"]`): clients that map schemas onto a
 *   single-type dialect refuse it; `anyOf` with one type per branch says the same.
 * - a schema that constrains nothing (`{}`) where a schema object is expected: declare what the value is
 *   (`additionalProperties: true` is the explicit spelling of "any value" for an object's other keys).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/** The keywords that constrain an instance, as JSON Schema 2020-12 defines them (annotations excluded). */
const CONSTRAINING = new Set([
  'type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'properties', 'patternProperties', 'additionalProperties',
  'required', 'items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minProperties', 'maxProperties', 'propertyNames',
]);
const BOOLEAN_ALLOWED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SUBSCHEMA = new Set(['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'additionalProperties', 'unevaluatedProperties', 'anyOf', 'oneOf', 'allOf', 'prefixItems']);

function findings(schema: unknown, path: string, keyword: string | undefined, out: string[]): void {
  if (typeof schema === 'boolean') {
    if (!keyword || !BOOLEAN_ALLOWED.has(keyword)) out.push(`${path}: bare ${String(schema)}`);
    return;
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.type)) out.push(`${path}: type is an array`);
  if (keyword !== 'not' && !Object.keys(node).some((k) => CONSTRAINING.has(k))) out.push(`${path}: constrains nothing`);
  for (const [key, value] of Object.entries(node)) {
    if (MAPS.has(key) && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) findings(sub, `${path}.${key}.${name}`, key, out);
    } else if (SUBSCHEMA.has(key)) {
      if (Array.isArray(value)) value.forEach((sub, i) => findings(sub, `${path}.${key}[${i}]`, key, out));
      else findings(value, `${path}.${key}`, key, out);
    }
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sqlite');
});
afterAll(async () => h.close());

it('no tool schema has a type array or a schema that constrains nothing', async () => {
  const { tools } = await h.owner.client.client.listTools();
  const out: string[] = [];
  for (const tool of tools) {
    findings(tool.inputSchema, `${tool.name}.inputSchema`, undefined, out);
    if (tool.outputSchema) findings(tool.outputSchema, `${tool.name}.outputSchema`, undefined, out);
  }
  expect(out).toEqual([]);
});
