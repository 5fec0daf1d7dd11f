/**
 * A tool's declaration: its name, its W/D/I flags, the capability and permission it needs, its input
 * and output schemas and one call into a service. Registration, auth, validation and the envelope are
 * derived from this in one place (register.ts).
 */
import type { z } from 'zod';
import { validationError, type ValidationIssue } from '../errors.js';
import type { ClientFeatures } from './apps/client-features.js';
import type { Access, Actor } from '../services/actor.js';
import type { Services } from '../services/index.js';

export interface ToolFlags {
  /** writes */
  W: boolean;
  /** destructive */
  D: boolean;
  /** idempotent */
  I: boolean;
}

export interface ToolAccess extends Access {
  /**
   * The service checks this access itself, after finding the records: the link and unlink tools report a
   * record the caller cannot see as not-found even when the token could not change it anyway
   * (authoring-interface.md, Authentication 2; CONTRACT.md: a visible record is FORBIDDEN).
   */
  afterLookup?: true;
}

export interface ToolContext {
  actor: Actor;
  services: Services;
  /** What the calling client can show a person (MCP Apps, form elicitation); absent outside MCP. */
  client?: ClientFeatures;
}

export interface ToolDeclaration<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  flags: ToolFlags;
  access: ToolAccess;
  input: I;
  output: O;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.input<O>>;
}

/** A declaration with its input type erased: what the registry holds and register.ts serves. */
export interface Tool extends Omit<ToolDeclaration, 'run'> {
  /** Validates the raw arguments against `input` (VALIDATION_ERROR on failure), then runs the tool. */
  execute(ctx: ToolContext, args: unknown): Promise<unknown>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodType>(declaration: ToolDeclaration<I, O>): Tool {
  const { run, ...rest } = declaration;
  return {
    ...rest,
    async execute(ctx, args) {
      const parsed = declaration.input.safeParse(storableInput(args ?? {}));
      if (!parsed.success) throw validationError(zodIssues(parsed.error));
      return run(ctx, parsed.data);
    },
  };
}

/** NUL, and a UTF-16 surrogate without its pair (one pattern to find, the same global one to replace). */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/**
 * How deep any tool input may nest (arrays and objects). Far above what a valid input needs (a Slate body
 * at LIMITS.bodyDepth is about twice that many levels), and low enough that no JSON encoder, validator or
 * store on the way (PostgreSQL's jsonb, JSON.stringify) runs out of stack on it.
 */
export const MAX_INPUT_DEPTH = 256;

interface CopyJob {
  from: unknown;
  into: object;
  key: string | number;
  depth: number;
  parent: CopyJob | null;
}

/**
 * The input as the tools take it: every string (values and keys) with the characters neither store can hold
 * replaced by U+FFFD, NUL (PostgreSQL refuses it in text and jsonb) and unpaired surrogates (not Unicode:
 * UTF-8 cannot encode them, jsonb refuses their escapes), as CommonMark does with NUL and a UTF-8 encoder
 * with a lone surrogate, so both engines store and answer the same text; and nothing nested deeper than
 * MAX_INPUT_DEPTH (VALIDATION_ERROR). A copy made without recursion, keys in their order.
 */
export function storableInput(input: unknown): unknown {
  const clean = (text: string) => (UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, '\uFFFD') : text);
  const root: { value?: unknown } = {};
  const stack: CopyJob[] = [{ from: input, into: root, key: 'value', depth: 0, parent: null }];
  for (let job = stack.pop(); job !== undefined; job = stack.pop()) {
    const { from, into, key, depth } = job;
    let value: unknown = from;
    if (typeof from === 'string') value = clean(from);
    else if (from !== null && typeof from === 'object') {
      if (depth > MAX_INPUT_DEPTH) {
        const path: string[] = [];
        for (let at: CopyJob | null = job; at?.parent; at = at.parent) path.unshift(String(at.key));
        throw validationError([{ path: path.slice(0, 8).join('.') + (path.length > 8 ? '.…' : ''), message: `nested deeper than ${MAX_INPUT_DEPTH} levels; flatten it` }]);
      }
      if (Array.isArray(from)) {
        const copy: unknown[] = new Array<unknown>(from.length);
        from.forEach((item: unknown, i) => stack.push({ from: item, into: copy, key: i, depth: depth + 1, parent: job }));
        value = copy;
      } else {
        const copy: Record<string, unknown> = {};
        for (const [k, item] of Object.entries(from)) {
          const name = clean(k);
          Object.defineProperty(copy, name, { value: undefined, enumerable: true, writable: true, configurable: true });
          stack.push({ from: item, into: copy, key: name, depth: depth + 1, parent: job });
        }
        value = copy;
      }
    }
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return root.value;
}

/** zod issues as the `details.issues[]` of VALIDATION_ERROR: a dotted path and a message. */
export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Flags as the interface document writes them (`W, D, I`), for descriptions and describe_platform. */
export function flagText(flags: ToolFlags): string {
  const set = (['W', 'D', 'I'] as const).filter((f) => flags[f]);
  return set.length > 0 ? set.join(', ') : 'read-only';
}
