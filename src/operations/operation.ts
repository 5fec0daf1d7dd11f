/**
 * A tool's declaration: its name, its W/D/I flags, the capability and permission it needs, its input
 * and output schemas and one call into a service. Registration, auth, validation and the envelope are
 * derived from this in one place (register.ts).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { z } from 'zod';
import { validationError, type ErrorCode } from '../errors.js';
import { inputIssues } from '../zod-issues.js';
import type { ClientFeatures } from '../mcp/apps/client-features.js';
import { credentialOf, type Access, type Actor } from '../services/actor.js';
import { asCaller } from '../services/fair-share.js';
import type { Services } from '../services/index.js';
import { storableInputOf } from '../services/storable-input.js';

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

/** Containers above which an input's steps take turns of their own (a 1 MB Slate body has about 40,000). */
const LARGE_INPUT_CONTAINERS = 20_000;


export function defineTool<I extends z.ZodObject, O extends z.ZodType>(declaration: ToolDeclaration<I, O>): Tool {
  const { run, ...rest } = declaration;
  return {
    ...rest,
    async execute(ctx, args) {
      const { value: input, containers } = storableInputOf(args ?? {});
      // A large input (a Slate body of 300,000 nodes) is walked, checked and handed to the tool in three turns
      // of the event loop: the three in one held it near 250 ms, with the collector's pauses (test/hostile/convert.test.ts).
      const large = containers > LARGE_INPUT_CONTAINERS;
      if (large) await yieldToEventLoop();
      const parsed = declaration.input.safeParse(input);
      if (!parsed.success) throw validationError(inputIssues(parsed.error, declaration.input, input));
      if (large) await yieldToEventLoop();
      // The conversion threads it uses count against its token's and account's share (fair-share.ts).
      return asCaller({ accountId: ctx.actor.accountId, credential: credentialOf(ctx.actor), arrival: ctx.actor.arrival }, () => run(ctx, parsed.data));
    },
  };
}

/** Flags as the interface document writes them (`W, D, I`), for descriptions and describe_platform. */
export function flagText(flags: ToolFlags): string {
  const set = (['W', 'D', 'I'] as const).filter((f) => flags[f]);
  return set.length > 0 ? set.join(', ') : 'read-only';
}

/**
 * An error code named in a description, where the tool must tell the agent about one refusal up front. The
 * code is typed against the catalogue, so renaming or removing it fails to compile; what every code means and
 * what to do about it is listed once, by describe_platform, not copied into each tool.
 */
export function errorCode(code: ErrorCode): ErrorCode {
  return code;
}
