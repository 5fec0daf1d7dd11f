/**
 * The JSON Schema a client reads in tools/list, made portable and short. zod writes correct draft 2020-12;
 * some of it is spelled in ways that clients mapping schemas onto a single-type dialect (Gemini's function
 * declarations, OpenAPI subsets) refuse, and some of it only costs tokens:
 *
 * - `type: ["string", "null"]` becomes `anyOf` with one type per branch;
 * - `additionalProperties: {}` (any value) is written `true`, the explicit spelling;
 * - the bounds zod puts on every integer (±2^53-1), `propertyNames: {type: "string"}` (every JSON key is a
 *   string) and the root's `$schema` (the SDK's default dialect) say nothing, and are dropped.
 *
 * The meaning of every schema is unchanged.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SAFE = Number.MAX_SAFE_INTEGER;
/** Keywords that only annotate: they stay on the union, not in its typed branch. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/** Keywords whose value maps names to schemas: the names are data, not keywords. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function node(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    if (key === 'propertyNames' && isObject(value) && Object.keys(value).length === 1 && value.type === 'string') continue;
    if (key === 'additionalProperties' && isObject(value) && Object.keys(value).length === 0) {
      out[key] = true;
      continue;
    }
    out[key] = MAPS.has(key) && isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub)])) : walk(value);
  }
  const type = out.type;
  if (Array.isArray(type) && type.length > 1) {
    const union: JsonObject = {};
    const typed: JsonObject = {};
    for (const [key, value] of Object.entries(out)) {
      if (key === 'type') continue;
      (ANNOTATIONS.has(key) ? union : typed)[key] = value;
    }
    // Constraints of one type (maxLength, items, properties…) go into that type's branch only.
    union.anyOf = type.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...typed }));
    return union;
  }
  return out;
}

function walk(value: Json): Json {
  if (Array.isArray(value)) return value.map(walk);
  if (isObject(value)) return node(value);
  return value;
}

export function portableJsonSchema<T extends object>(schema: T): T {
  return walk(schema as unknown as Json) as unknown as T;
}

/**
 * An output schema as a client needs it: every field with its type, enums and notes, but not the closing
 * rules (`required`, `additionalProperties: false`) that only matter when checking what a client sends.
 * Still true of every answer; a tool's output schema is read by every agent on every tools/list.
 */
export function outputJsonSchema<T extends object>(schema: T): T {
  const strip = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(strip);
    if (!isObject(value)) return value;
    const out: JsonObject = {};
    for (const [key, sub] of Object.entries(value)) {
      if (key === 'required' && Array.isArray(sub)) continue;
      if (key === 'additionalProperties' && sub === false) continue;
      out[key] = MAPS.has(key) && isObject(sub) ? Object.fromEntries(Object.entries(sub).map(([name, s]) => [name, strip(s)])) : strip(sub);
    }
    return out;
  };
  return strip(portableJsonSchema(schema) as unknown as Json) as unknown as T;
}
