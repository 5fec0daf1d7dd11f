/**
 * The `trail_context_schema` profile (CONTRACT.md, "trail_context_schema"): a JSON Schema 2020-12 object
 * of flat primitive properties — the same shapes MCP elicitation accepts, so a client can ask a person
 * for a missing context with the schema as it is. Anything outside the profile is refused when a flow is
 * saved (INVALID_TRAIL_CONTEXT_SCHEMA); inside it, ajv enforces the schema on `trail_context`.
 */
import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { LIMITS } from '../../limits/index.js';
import { issuesError, pathText, type ValidationIssue } from '../../errors.js';
import { describeOverrun, overBudget } from '../json-budget.js';

export type TrailContextSchema = Record<string, unknown>;

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';
const FORMATS = ['date', 'date-time', 'email', 'uri'] as const;

/** Keywords that annotate and never change what validates: allowed on the schema and on every property. */
const ANNOTATIONS = ['title', 'description'];
const TOP_LEVEL = ['$schema', 'type', 'properties', 'required', 'additionalProperties', ...ANNOTATIONS];
const BY_TYPE: Record<string, string[]> = {
  string: ['type', 'format', 'minLength', 'maxLength', 'enum', 'oneOf', 'default', ...ANNOTATIONS],
  number: ['type', 'minimum', 'maximum', 'default', ...ANNOTATIONS],
  integer: ['type', 'minimum', 'maximum', 'default', ...ANNOTATIONS],
  boolean: ['type', 'default', ...ANNOTATIONS],
  array: ['type', 'items', 'minItems', 'maxItems', 'uniqueItems', 'default', ...ANNOTATIONS],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNonNegativeInteger = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

class ProfileCheck {
  readonly issues: ValidationIssue[] = [];

  add(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  onlyKeys(node: Record<string, unknown>, allowed: string[], path: string, what: string): void {
    for (const key of Object.keys(node)) {
      if (!allowed.includes(key)) {
        this.add(`${path}.${key}`, `'${key}' is not accepted in ${what}; allowed: ${allowed.join(', ')} (no $ref, no nested objects)`);
      }
    }
  }

  annotations(node: Record<string, unknown>, path: string): void {
    for (const key of ANNOTATIONS) {
      if (key in node && typeof node[key] !== 'string') this.add(`${path}.${key}`, `${key} must be a string`);
    }
  }

  /** `enum` of strings, or `oneOf` of `{const, title}`: the two ways the profile spells a choice. */
  choices(node: Record<string, unknown>, path: string, combinator: 'oneOf' | 'anyOf'): string[] | null {
    if ('enum' in node && combinator in node) {
      this.add(path, `give a choice either as enum or as ${combinator}, not both`);
      return null;
    }
    const given = node['enum' in node ? 'enum' : combinator];
    if (Array.isArray(given) && given.length > LIMITS.contextSchemaChoices) {
      this.add(`${path}.${'enum' in node ? 'enum' : combinator}`, `at most ${LIMITS.contextSchemaChoices} choices`);
      return null;
    }
    if ('enum' in node) {
      const values = node.enum;
      if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
        this.add(`${path}.enum`, 'enum must be a non-empty array of strings');
        return null;
      }
      if (new Set(values).size !== values.length) this.add(`${path}.enum`, 'enum values must be unique');
      return values as string[];
    }
    if (combinator in node) {
      const options = node[combinator];
      if (!Array.isArray(options) || options.length === 0) {
        this.add(`${path}.${combinator}`, `${combinator} must be a non-empty array of {const, title}`);
        return null;
      }
      const values: string[] = [];
      options.forEach((option, i) => {
        const at = pathText([combinator, i], path);
        if (!isObject(option)) return this.add(at, 'each option must be an object {const, title}');
        this.onlyKeys(option, ['const', 'title', 'description'], at, 'an option');
        if (typeof option.const !== 'string') this.add(`${at}.const`, 'const must be a string');
        else values.push(option.const);
        if (typeof option.title !== 'string') this.add(`${at}.title`, 'title must be a string');
      });
      if (new Set(values).size !== values.length) this.add(`${path}.${combinator}`, 'option const values must be unique');
      return values;
    }
    return null;
  }

  /** `$ref` is named as such: a property or items that point elsewhere have no `type` of their own to blame. */
  noRef(node: Record<string, unknown>, path: string): boolean {
    if (!('$ref' in node)) return true;
    this.add(`${path}.$ref`, '$ref is not accepted (the profile has no references, so MCP elicitation can show the schema as it is); write the schema in place');
    return false;
  }

  property(node: unknown, path: string): void {
    if (!isObject(node)) return this.add(path, 'a property must be a schema object with a type');
    if (!this.noRef(node, path)) return;
    const type = node.type;
    if (typeof type !== 'string' || !(type in BY_TYPE)) {
      return this.add(`${path}.type`, `type must be one of ${Object.keys(BY_TYPE).join(', ')} (objects cannot nest)`);
    }
    this.onlyKeys(node, BY_TYPE[type], path, `a ${type} property`);
    this.annotations(node, path);
    for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems']) {
      if (key in node && !isNonNegativeInteger(node[key])) this.add(`${path}.${key}`, `${key} must be a non-negative integer`);
    }
    for (const key of ['minimum', 'maximum']) {
      if (key in node && typeof node[key] !== 'number') this.add(`${path}.${key}`, `${key} must be a number`);
    }
    if (type === 'string') {
      if ('format' in node && !FORMATS.includes(node.format as (typeof FORMATS)[number])) {
        this.add(`${path}.format`, `format must be one of ${FORMATS.join(', ')}`);
      }
      const choices = this.choices(node, path, 'oneOf');
      if (choices && 'format' in node) this.add(`${path}.format`, 'a choice takes no format');
      if ('default' in node && typeof node.default !== 'string') this.add(`${path}.default`, 'default must be a string');
      else if ('default' in node && choices && !choices.includes(node.default as string)) this.add(`${path}.default`, 'default must be one of the choices');
    }
    if ((type === 'number' || type === 'integer') && 'default' in node) {
      const ok = typeof node.default === 'number' && (type === 'number' || Number.isInteger(node.default));
      if (!ok) this.add(`${path}.default`, `default must be ${type === 'integer' ? 'an integer' : 'a number'}`);
    }
    if (type === 'boolean' && 'default' in node && typeof node.default !== 'boolean') this.add(`${path}.default`, 'default must be a boolean');
    if (type === 'array') this.arrayOfChoices(node, path);
  }

  /** An array property is a multi-select: its items are a string choice (enum, or anyOf/oneOf of {const, title}). */
  arrayOfChoices(node: Record<string, unknown>, path: string): void {
    const items = node.items;
    const at = `${path}.items`;
    if (!isObject(items)) return this.add(at, 'an array property needs items: {type: "string", enum: [...]}, or {anyOf: [{const, title}, ...]} (oneOf is accepted too)');
    if (!this.noRef(items, at)) return;
    this.onlyKeys(items, ['type', 'enum', 'anyOf', 'oneOf', ...ANNOTATIONS], at, 'array items');
    if ('type' in items && items.type !== 'string') this.add(`${at}.type`, 'array items must be strings');
    const combinator = 'oneOf' in items ? 'oneOf' : 'anyOf';
    if ('oneOf' in items && 'anyOf' in items) this.add(at, 'give either anyOf or oneOf, not both');
    const choices = this.choices(items, at, combinator);
    if (!choices) {
      if (!('enum' in items) && !(combinator in items)) this.add(at, 'array items must be a string enum, or an anyOf or oneOf of {const, title}');
      return;
    }
    if ('default' in node && (!Array.isArray(node.default) || !node.default.every((v) => typeof v === 'string' && choices.includes(v)))) {
      this.add(`${path}.default`, 'default must be an array of the choices');
    }
  }

  schema(schema: unknown, path: string): void {
    if (!isObject(schema)) return this.add(path, 'trail_context_schema must be a JSON Schema object');
    this.onlyKeys(schema, TOP_LEVEL, path, 'trail_context_schema');
    this.annotations(schema, path);
    if ('$schema' in schema && schema.$schema !== DRAFT_2020_12) this.add(`${path}.$schema`, `$schema must be ${DRAFT_2020_12} (or left out)`);
    if (schema.type !== 'object') this.add(`${path}.type`, 'type must be "object"');
    if ('additionalProperties' in schema && typeof schema.additionalProperties !== 'boolean') {
      this.add(`${path}.additionalProperties`, 'additionalProperties must be a boolean');
    }
    const properties = schema.properties ?? {};
    if (!isObject(properties)) return this.add(`${path}.properties`, 'properties must be an object of property schemas');
    if (Object.keys(properties).length > LIMITS.contextSchemaProperties) {
      return this.add(`${path}.properties`, `at most ${LIMITS.contextSchemaProperties} properties`);
    }
    for (const [name, property] of Object.entries(properties)) {
      if (name.length === 0) this.add(`${path}.properties`, 'property names must not be empty');
      this.property(property, `${path}.properties.${name}`);
    }
    if ('required' in schema) {
      const required = schema.required;
      if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
        this.add(`${path}.required`, 'required must be an array of property names');
      } else {
        for (const name of required) {
          if (!(name in properties)) this.add(`${path}.required`, `'${name}' is required but not a property`);
        }
        if (new Set(required).size !== required.length) this.add(`${path}.required`, 'required names must be unique');
      }
    }
  }
}

/** The schema's JSON with every object's keys sorted: one text per schema, whatever order an engine stored it in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether two schemas are the same document (key order aside: PostgreSQL's jsonb re-sorts keys). */
export function sameSchema(a: TrailContextSchema | null, b: TrailContextSchema | null): boolean {
  if (a === null || b === null) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Ajv compiles each schema to a function with `new Function`, and V8 keeps the source of every such function
 * in its compilation cache for as long as the process lives, used again or not (measured on Node 20: 80 KB per
 * distinct 100-property schema, never released however often the heap is collected). Schemas come from
 * callers, so that cache would grow with every distinct one sent; it only helps code compiled twice from the
 * same text, which Waymark does not do (validators are kept below), so it is turned off for the process.
 */
v8.setFlagsFromString('--no-compilation-cache');

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
  // ajv-formats is CommonJS: under NodeNext its default import is module.exports, whose `default` is the plugin.
  ajvFormats.default(ajv, [...FORMATS]);
  return ajv;
}

/**
 * Compiled validators by the sha256 of the schema's canonical JSON. An Ajv instance keeps something of
 * every schema it ever compiled (its cache, and the values of its code scope, which removeSchema does not
 * clear): one instance for the process made 2000 distinct schemas hold 800 MB (issue 16, finding 5). So an
 * instance compiles at most GENERATION schemas; then it is dropped with every validator it made, and a new
 * one starts. What stays is bounded by one instance and GENERATION validators, whatever callers send; a
 * schema in use is compiled again when next needed (a few ms). A new instance per schema would cost 35 ms
 * (it compiles the 2020-12 meta-schemas) on each.
 */
const GENERATION = 64;
let ajv = newAjv();
let compiledByAjv = 0;
const compiled = new Map<string, ValidateFunction>();

function compile(schema: TrailContextSchema): ValidateFunction {
  const key = createHash('sha256').update(canonicalJson(schema)).digest('hex');
  let validate = compiled.get(key);
  if (validate) return validate;
  if (compiledByAjv >= GENERATION) {
    ajv = newAjv();
    compiledByAjv = 0;
    compiled.clear();
  }
  compiledByAjv++;
  try {
    validate = ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
  }
  compiled.set(key, validate);
  return validate;
}

/** How many validators are compiled and kept (for tests of the cache's bound). */
export function compiledSchemaCount(): number {
  return compiled.size;
}

const SCHEMA_TEXT = {
  lead: 'trail_context_schema is outside the accepted profile: ',
  tail: '. Use {type: "object", properties: {name: {type: "string"|"number"|"integer"|"boolean", ...}}, required: [...]}.',
};

/**
 * Checks a schema against the profile and that ajv compiles it; refuses with its problems (at most
 * LIMITS.issuesPerError listed, details.issue_count has them all). Its size is checked first, so that no
 * work grows with a schema beyond LIMITS.contextSchemaBytes. `path` prefixes each issue's path (the input field's name).
 */
export function assertTrailContextSchema(schema: unknown, path = 'trail_context_schema'): TrailContextSchema {
  const overrun = overBudget(schema, { bytes: LIMITS.contextSchemaBytes, depth: 6 });
  if (overrun) {
    throw issuesError('INVALID_TRAIL_CONTEXT_SCHEMA', [{ path, message: `too large: ${describeOverrun(path, overrun)}; the profile is flat and small` }], SCHEMA_TEXT);
  }
  const check = new ProfileCheck();
  check.schema(schema, path);
  if (check.issues.length === 0) {
    try {
      compile(schema as TrailContextSchema);
    } catch (error) {
      check.add(path, `not a valid JSON Schema 2020-12: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (check.issues.length > 0) {
    throw issuesError('INVALID_TRAIL_CONTEXT_SCHEMA', check.issues, SCHEMA_TEXT);
  }
  return schema as TrailContextSchema;
}

function choiceValues(error: ErrorObject): string[] {
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  const options = parent?.[error.keyword];
  return Array.isArray(options) ? options.map((o: { const?: unknown }) => String(o.const)) : [];
}

/** What each format asks, with an example: a person reads it under the field, an agent in the issue (issue 28). */
const FORMAT_WORDS: Record<string, string> = {
  email: 'must be an email address, like ann@example.com',
  date: 'must be a date, like 2026-12-01',
  'date-time': 'must be a date and time with its time zone, like 2026-12-01T09:00:00Z',
  uri: 'must be a full web address, like https://example.com',
};

/** What a format asks, in the words above (the elicited step form's refusals say it too: mcp/apps/form-refusal.ts). */
export function formatWords(format: string): string | undefined {
  return Object.hasOwn(FORMAT_WORDS, format) ? FORMAT_WORDS[format] : undefined;
}

const TYPE_WORDS: Record<string, string> = { string: 'text', number: 'a number', integer: 'a whole number', boolean: 'true or false (yes or no)', array: 'a list of choices' };

/** ajv's message of a keyword in words a person reads under the field (and an agent in the issue): what to give. */
function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const characters = (n: unknown) => `${String(n)} character${n === 1 ? '' : 's'}`;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a declared field';
    case 'format':
      return FORMAT_WORDS[String(params.format)] ?? `must be of the format ${String(params.format)}`;
    case 'minLength':
      return `must be at least ${characters(params.limit)} long`;
    case 'maxLength':
      return `must be at most ${characters(params.limit)} long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'minItems':
      return `needs at least ${String(params.limit)} chosen`;
    case 'maxItems':
      return `may have at most ${String(params.limit)} chosen`;
    case 'type':
      return `must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'oneOf':
    case 'anyOf':
      return `must be one of the choices: ${choiceValues(error).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

function issueOf(error: ErrorObject, root: string): ValidationIssue {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') segments.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'additionalProperties') segments.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return { path: pathText(segments.map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s)), root), message: messageOf(error) };
}

/** Issues by path, then message, in code-unit order: the same on every engine and locale. */
function byPathThenMessage(a: ValidationIssue, b: ValidationIssue): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.message !== b.message) return a.message < b.message ? -1 : 1;
  return 0;
}

/**
 * Problems of a trail_context against its flow's schema (empty when it fits); each with its path, sorted
 * by path then message. ajv reports in the order of the schema's keys, and PostgreSQL's jsonb stores an
 * object's keys re-sorted (shorter keys first), so the stored schema's order differs between engines.
 */
export function trailContextIssues(schema: TrailContextSchema, context: unknown, root = 'trail_context'): ValidationIssue[] {
  const validate = compile(schema);
  if (validate(context)) return [];
  // A failed choice reports each option's const mismatch and then the oneOf/anyOf itself: keep only the latter.
  const errors = (validate.errors ?? []).filter((e) => !(e.keyword === 'const' && /\/(oneOf|anyOf)\/\d+\/const$/.test(e.schemaPath)));
  const issues = errors.map((e) => issueOf(e, root));
  // oneOf failures repeat once per option; one line per path and message is enough for an agent.
  const seen = new Set<string>();
  return issues
    .filter((i) => {
      const key = `${i.path}\n${i.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort(byPathThenMessage);
}
