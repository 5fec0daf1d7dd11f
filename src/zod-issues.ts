/**
 * zod issues in the agent's words (issue 13): zod's generic messages ("Invalid input: expected object, received
 * string", "Invalid input") name a type, not what to send. Each generic message is written again from the schema
 * at the issue's path, as the JSON shape it expects (`an object { value: … }`, `a string`, `one of: a, b`), and a
 * value sent bare where an object of one field is expected is told to wrap it. A message a schema gives itself
 * (`error: '…'`) is kept, after `required;` when the field was left out.
 */
import type { z } from 'zod';
import { pathText, type ValidationIssue } from './errors.js';
import { quote } from './quote.js';

type Schema = z.core.$ZodType;
interface Def {
  type: string;
  [key: string]: unknown;
}

/** zod's own messages start so; a schema's `error` text does not (ours are lower-case sentences). */
const GENERIC = /^(Invalid input|Invalid option|Invalid string|Invalid [a-z]+:|Too small|Too big|Unrecognized key)/;
/** Fields of an object shape shown before `…`: enough to recognise it, short enough to read. */
const FIELDS_SHOWN = 6;

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;

/** The schema without the wrappers that keep its JSON shape (optional, nullable, default, a pipe's input, lazy). */
function unwrap(schema: Schema): Schema {
  for (let s = schema, i = 0; i < 20; i++) {
    const def = defOf(s);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'success'].includes(def.type)) s = def.innerType as Schema;
    else if (def.type === 'pipe') s = def.in as Schema;
    else if (def.type === 'lazy') s = (def.getter as () => Schema)();
    else return s;
  }
  return schema;
}

/** The schema a value at `path` is checked against, or undefined where the path leaves the schema. */
function schemaAt(schema: Schema, path: readonly PropertyKey[]): Schema | undefined {
  let s: Schema | undefined = schema;
  for (const key of path) {
    if (!s) return undefined;
    const def = defOf(unwrap(s));
    if (def.type === 'object') s = (def.shape as Record<string, Schema>)[String(key)];
    else if (def.type === 'array') s = def.element as Schema;
    else if (def.type === 'record') s = def.valueType as Schema;
    else if (def.type === 'union') s = (def.options as Schema[]).map((o) => schemaAt(o, [key])).find((o) => o !== undefined);
    else return undefined;
  }
  return s;
}

export const isOptional = (schema: Schema): boolean => ['optional', 'default', 'prefault'].includes(defOf(schema).type);

/** A schema as compact JSON notation: `string`, `integer`, `"a" | "b"`, `[string, …]`, `{ a: string, b?: … }`. */
export function notation(schema: Schema, depth: number): string {
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case 'string':
      return 'string';
    case 'number':
      return ((def.checks as Array<{ _zod: { def: { format?: string } } }> | undefined) ?? []).some((c) => /int/.test(c._zod.def.format ?? '')) || /int/.test(String(def.format ?? '')) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'enum':
      return Object.values(def.entries as Record<string, string | number>).map((v) => JSON.stringify(v)).join(' | ');
    case 'literal':
      return (def.values as unknown[]).map((v) => JSON.stringify(v)).join(' | ');
    case 'array':
      // An array's items are shown at the array's depth: `[{ … }, …]` is one level, as the object inside it.
      return `[${notation(def.element as Schema, depth)}, …]`;
    case 'record':
      return '{…}';
    case 'object': {
      if (depth <= 0) return '{…}';
      const entries = Object.entries(def.shape as Record<string, Schema>);
      const shown = entries.slice(0, FIELDS_SHOWN).map(([k, v]) => `${k}${isOptional(v) ? '?' : ''}: ${notation(v, depth - 1)}`);
      return `{ ${shown.join(', ')}${entries.length > FIELDS_SHOWN ? ', …' : ''} }`;
    }
    case 'union':
      return depth <= 0 ? '…' : (def.options as Schema[]).map((o) => notation(o, depth - 1)).join(' | ');
    default:
      return '…';
  }
}

/** What a schema expects, in a few words: `a string`, `an object { value: … }`, `one of: a, b`. */
export function expectedShape(schema: Schema): string {
  const s = unwrap(schema);
  const def = defOf(s);
  const text = notation(s, 2);
  switch (def.type) {
    case 'object':
      return `an object ${text}`;
    case 'array':
      return `an array ${text}`;
    case 'record':
      return 'an object';
    case 'enum':
    case 'literal':
      return `one of: ${text.replace(/ \| /g, ', ')}`;
    case 'union':
      return text;
    case 'string':
    case 'number':
    case 'boolean':
      return `${text === 'integer' ? 'an' : 'a'} ${text}`;
    default:
      return text;
  }
}

/** The JSON type of a value, as a message names what was sent. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** A bare value where an object of one field is expected: `{ value: … }` for an answer. */
function wrapHint(schema: Schema, value: unknown): string {
  const def = defOf(unwrap(schema));
  if (def.type !== 'object' || value === null || (typeof value === 'object' && !Array.isArray(value))) return '';
  const keys = Object.keys(def.shape as Record<string, Schema>);
  return keys.length === 1 ? `; wrap it as { "${keys[0]}": … }` : '';
}

function size(n: number | bigint, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** One issue's message: zod's own, written again from the schema; a schema's own message, kept. */
export function issueMessage(issue: z.core.$ZodIssue, schema: Schema, input: unknown): string {
  const here = schemaAt(schema, issue.path);
  const value = valueAt(input, issue.path);
  if (!GENERIC.test(issue.message)) {
    // A schema's own words say what a value must be; that none was sent is said first.
    return issue.code === 'invalid_type' && value === undefined && !/^required/.test(issue.message) ? `required; ${issue.message}` : issue.message;
  }
  switch (issue.code) {
    case 'invalid_type':
    case 'invalid_union': {
      if (!here) break;
      if (value === undefined) return `required: ${expectedShape(here)}`;
      return `expected ${expectedShape(here)}, got ${kindOf(value)}${wrapHint(here, value)}`;
    }
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys': {
      const def = here ? defOf(unwrap(here)) : undefined;
      const allowed = def?.type === 'object' ? Object.keys(def.shape as Record<string, Schema>) : [];
      const which = issue.keys.map((k) => `"${quote(k, 60)}"`).join(', ');
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${which}${allowed.length > 0 ? `; the fields are: ${allowed.join(', ')}` : ''}`;
    }
    case 'too_small':
    case 'too_big': {
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      const word = issue.code === 'too_small' ? 'least' : 'most';
      if (issue.origin === 'string') return `must be at ${word} ${size(bound, 'character')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must hold at ${word} ${size(bound, 'item')}`;
      if (issue.inclusive === false) return `must be ${issue.code === 'too_small' ? 'greater' : 'less'} than ${bound}`;
      return `must be at ${word} ${bound}`;
    }
    case 'invalid_format':
      return issue.format === 'regex' && 'pattern' in issue ? `must match ${String(issue.pattern)}` : `must be a valid ${issue.format}`;
    default:
      break;
  }
  return issue.message;
}

/**
 * zod issues as the `details.issues[]` of an error: each at its path (pathText, under `prefix`), with a message
 * that names the shape expected there. `input` is what was parsed (to tell a missing field from a wrong one).
 */
export function inputIssues(error: z.ZodError, schema: Schema, input: unknown, prefix = ''): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const found = { path: pathText(issue.path, prefix), message: issueMessage(issue, schema, input) };
    // A union reports the same message from each branch; one is enough.
    const key = `${found.path}\u0000${found.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(found);
  }
  return out;
}
