/**
 * An operation's declaration: its name, its W/D/I flags, the capability and permission it needs, its input and
 * output shapes, the doors that serve it (MCP, REST), what it shows a person, and one call into a service. Every
 * door runs it through `dispatch` (dispatch.ts): authentication, access, validation and the outcome are derived
 * from this declaration in one place, and OpenAPI, tools/list and the snapshots are derived from it too.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { z } from 'zod';
import { validationError, type ErrorCode } from '../errors.js';
import { inputIssues } from '../zod-issues.js';
import type { ClientFeatures } from './platform/client-features.js';
import { credentialOf, type Access, type Actor } from '../services/actor.js';
import { asCaller } from '../services/fair-share.js';
import type { Services } from '../services/index.js';
import type { TrailView } from '../services/trails/shapes.js';
import { storableInputOf } from '../services/storable-input.js';

export interface ToolFlags {
  /** writes */
  W: boolean;
  /** destructive */
  D: boolean;
  /** idempotent */
  I: boolean;
}

export interface OperationAccess extends Access {
  /**
   * The service checks this access itself, after finding the records: the link and unlink tools report a
   * record the caller cannot see as not-found even when the token could not change it anyway
   * (authoring-interface.md, Authentication 2; CONTRACT.md: a visible record is FORBIDDEN).
   */
  afterLookup?: true;
}

/** The REST door of an operation: its method and path under /api/v1 (`:name` segments are input fields). */
export interface RestRoute {
  method: 'get' | 'post' | 'delete';
  path: string;
  operationId: string;
  /**
   * The route answers a file to download instead of the JSON envelope (the Trails page's CSV): the output's `text`
   * (fileAnswerShape) as this media type, saved under this name, and its `next_cursor` as a Link header, rel "next".
   */
  file?: { mediaType: string; name: string };
}

/** What the caller's web session offers an operation, at the REST door; absent at the others. */
export interface SessionPort {
  /** The call came with the person's own session cookie (and passed its CSRF check), not a Bearer token. */
  readonly signedIn: boolean;
  readonly expiresAt: string | null;
  /** A CSRF token for the session's state-changing requests; null without a session. */
  csrfToken(): string | null;
  /** Ends the session and clears its cookies; false without one. */
  signOut(): Promise<boolean>;
}

export interface OperationContext {
  actor: Actor;
  services: Services;
  /** What the calling client can show a person (MCP Apps, form elicitation); absent outside MCP. */
  client?: ClientFeatures;
  session?: SessionPort;
}

/** An operation that answers a trail and puts a person in front of its current step (issue 14). */
export interface StepFormDeclaration {
  /**
   * It may ask the person for the step's answers by form elicitation, where the client can; after they are
   * submitted it answers the trail as it then stands, in its own answer's shape (read further with `ctx` where the
   * shape holds more than the trail: get_trail's comments).
   */
  elicit?: (view: TrailView, ctx: OperationContext) => unknown;
}

export interface OperationDeclaration<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  flags: ToolFlags;
  access: OperationAccess;
  input: I;
  output: O;
  /** false: not an MCP tool (an operation of the web app); otherwise tools/list offers it. */
  mcp?: false;
  /** Served under /api/v1 at this route. */
  rest?: RestRoute;
  /**
   * Only the person's own web session may call it, never a Bearer token: an API key or an app's access token is a
   * credential the person handed to software, which must not list their other keys nor revoke another app's access.
   */
  sessionOnly?: true;
  /** MCP Apps clients get the step form with its answer (and elicitation where declared). */
  stepForm?: StepFormDeclaration;
  run(ctx: OperationContext, input: z.output<I>): Promise<z.input<O>>;
}

/** A declaration with its input type erased: what the registry holds and dispatch runs. */
export interface Operation extends Omit<OperationDeclaration, 'run'> {
  /** Validates the raw arguments against `input` (VALIDATION_ERROR on failure), then runs the operation. */
  execute(ctx: OperationContext, args: unknown): Promise<unknown>;
}

/** Containers above which an input's steps take turns of their own (a 1 MB Slate body has about 40,000). */
const LARGE_INPUT_CONTAINERS = 20_000;

export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(declaration: OperationDeclaration<I, O>): Operation {
  const { run, ...rest } = declaration;
  return {
    ...rest,
    async execute(ctx, args) {
      const { value: input, containers } = storableInputOf(args ?? {});
      // A large input (a Slate body of 300,000 nodes) is walked, checked and handed to the operation in three turns
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
