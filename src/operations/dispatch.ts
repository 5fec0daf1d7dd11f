/**
 * The one way an operation runs, whichever door it came through (MCP over HTTP or stdio, REST, the web app): find
 * the caller, refuse the unauthenticated, hold a session-only operation to the person's own session, check the
 * declared access (except where the service checks it after finding the records), run, let the door add what it
 * shows a person, and log the outcome once. The door only turns the outcome into its envelope.
 */
import type { Logger } from 'pino';
import { errorBody, WaymarkError, type ErrorBody } from '../errors.js';
import { assertAccess, type Actor } from '../services/actor.js';
import { nextArrival } from '../services/arrivals.js';
import { asOperation } from '../services/events/operation-context.js';
import type { Services } from '../services/index.js';
import type { ClientFeatures } from './platform/client-features.js';
import type { Operation, OperationContext, SessionPort } from './operation.js';

/** The doors: MCP (HTTP and stdio), REST under /api/v1, and the server's own pages (the connected-apps page). */
export type Door = 'mcp' | 'rest' | 'page';

export interface Call {
  door: Door;
  /** Finds who is calling, or null: no valid token or session came with the call. */
  caller(): Promise<Actor | null>;
  services: Services;
  logger: Logger;
  client?: ClientFeatures;
  session?: SessionPort;
  /**
   * What the door adds to an answer for a person in front of it (the MCP door: the step form, elicitation), run
   * inside the call so its refusals are the call's own.
   */
  present?(operation: Operation, data: unknown, ctx: OperationContext): Promise<Presented>;
}

export interface Presented {
  data: unknown;
  /** The answer's `_meta` at the MCP door. */
  meta?: Record<string, unknown>;
}

export type Outcome = ({ ok: true } & Presented) | { ok: false; error: ErrorBody };

const UNAUTHENTICATED_MESSAGE =
  'No valid token: pass a Waymark token (Authorization: Bearer over HTTP, WAYMARK_TOKEN over stdio), or sign in to the web app with a sign-in link.';

const SESSION_ONLY_MESSAGE =
  'API keys and connected apps are managed only from your own web session: open the connected-apps page (/oauth/grants) after signing in with a sign-in link; a Bearer token cannot do it.';

async function run(operation: Operation, call: Call, args: unknown): Promise<Presented> {
  // The call's arrival, taken before its token is looked up (arrivals.ts); an HTTP door stamped it already.
  const arrival = nextArrival();
  const found = await call.caller();
  if (!found) throw new WaymarkError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
  const actor: Actor = { ...found, arrival: found.arrival ?? arrival };
  if (operation.sessionOnly && !call.session?.signedIn) throw new WaymarkError('FORBIDDEN', SESSION_ONLY_MESSAGE, { required_credential: 'session' });
  // The one place each operation's declared access is enforced, except where the service must first find the
  // records (OperationAccess.afterLookup) and checks it there.
  if (!operation.access.afterLookup) assertAccess(actor, operation.access);
  const ctx: OperationContext = { actor, services: call.services, client: call.client, session: call.session };
  const data = await operation.execute(ctx, args);
  return call.present ? call.present(operation, data, ctx) : { data };
}

export async function dispatch(operation: Operation, call: Call, args: unknown): Promise<Outcome> {
  const started = performance.now();
  try {
    // The events the call's writes append name it (services/events/record.ts).
    const presented = await asOperation(operation.name, () => run(operation, call, args));
    call.logger.debug({ operation: operation.name, door: call.door, ms: Math.round(performance.now() - started) }, 'call');
    return { ok: true, ...presented };
  } catch (error) {
    const body = errorBody(error);
    const line = { operation: operation.name, door: call.door, errorId: body.errorId, code: body.code, status: body.status };
    if (body.code === 'INTERNAL_ERROR') call.logger.error({ ...line, err: error }, 'call failed');
    else call.logger.info(line, 'call refused');
    return { ok: false, error: body };
  }
}
