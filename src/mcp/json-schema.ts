/**
 * The JSON Schema a client reads in tools/list, made portable and short. zod writes correct draft 2020-12;
 * some of it is spelled in ways that clients mapping schemas onto a single-type dialect (Gemini's function
 * declarations, OpenAPI subsets) refuse, and some of it only costs tokens:
 *
 * - `type: ["string", "null"]` becomes `anyOf` with one type per branch;
 * - `additionalProperties: {}` (any value) is written `true`, the explicit spelling;
 * - the bounds zod puts on every integer (±2^53-1), `propertyNames: {type: "string"}` (every JSON key is a
 *   string), the root's `$schema` (the SDK's default dialect) and the pattern zod adds beside `format: "uuid"`
 *   say nothing more, and are dropped (the server still checks the full rule).
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

/** For an output schema: leave out the closing rules too (see outputJsonSchema). */
interface Walk {
  output: boolean;
}

function node(schema: JsonObject, w: Walk): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema') continue;
    if (w.output && ((key === 'required' && Array.isArray(value)) || (key === 'additionalProperties' && value === false))) continue;
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    if (key === 'propertyNames' && isObject(value) && Object.keys(value).length === 1 && value.type === 'string') continue;
    if (key === 'additionalProperties' && isObject(value) && Object.keys(value).length === 0) {
      out[key] = true;
      continue;
    }
    out[key] = MAPS.has(key) && isObject(value) ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, walk(sub, w)])) : walk(value, w);
  }
  // zod writes a uuid as its format and the same rule again as a 40-token pattern; the format says it.
  if (out.format === 'uuid' && typeof out.pattern === 'string') delete out.pattern;
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

function walk(value: Json, w: Walk): Json {
  if (Array.isArray(value)) return value.map((item) => walk(item, w));
  if (isObject(value)) return node(value, w);
  return value;
}

export function portableJsonSchema<T extends object>(schema: T): T {
  return walk(schema as unknown as Json, { output: false }) as unknown as T;
}

/**
 * How much of an answer an output schema in tools/list spells out: the envelope, and `data`'s own fields
 * with their types, enums and notes; a field that is itself an object (or a list of objects) is given by
 * its type, not by its fields. Every answer still fits it, and the answers show the rest. Spelling out every
 * level cost 8,300 of the 14,261 tokens tools/list took (issue "What an agent pays": a budget of 10k in all).
 * The test harness checks every answer against the tool's full zod output schema, so the shapes are proven
 * as deep as before.
 */
const OUTLINE_DEPTH = 2;

/** A schema cut to `depth` levels of properties; a list does not count as a level, its items are what it holds. */
function outline(schema: JsonObject, depth: number): JsonObject {
  if (isObject(schema.properties) && depth <= 0) {
    return { type: 'object', ...(typeof schema.description === 'string' ? { description: schema.description } : {}) };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isObject(sub) ? outline(sub, depth - 1) : sub]));
    else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = outline(value, depth);
    else if (key === 'anyOf' && Array.isArray(value)) out[key] = value.map((branch) => (isObject(branch) ? outline(branch, depth) : branch));
    else out[key] = value;
  }
  return out;
}

/**
 * An output schema as a client needs it: the fields of the answer with their types, enums and notes (to
 * OUTLINE_DEPTH), but not the closing rules (`required`, `additionalProperties: false`) that only matter when
 * checking what a client sends. Still true of every answer; a tool's output schema is read by every agent
 * on every tools/list.
 */
export function outputJsonSchema<T extends object>(schema: T): T {
  return outline(walk(schema as unknown as Json, { output: true }) as JsonObject, OUTLINE_DEPTH) as unknown as T;
}
