import { randomUUID } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { LIMITS } from '../../limits/index.js';
import { errorBody, WaymarkError } from '../../errors.js';
import type { Services } from '../../services/index.js';
import { assertAccess, type Access, type Actor } from '../../services/actor.js';
import { storableInput } from '../../services/storable-input.js';
import { actorOf } from '../session/bearer.js';
import { jsonBody, type BodyRefusal } from '../json/body.js';
import { largeAnswerBytes } from '../json/large-answer.js';
import { operationArgs, REST_OPERATIONS } from './operations.js';
import type { WebSession } from '../session/session.js';

type Handler = (actor: Actor, req: Request, res: Response) => Promise<unknown>;

/**
 * The refusals of the HTTP layer itself, before any route runs: no route at that path, a route that takes other
 * methods, a body that cannot be read as JSON, is too large, or is not JSON. They are not tool errors (no tool
 * can answer them), so they stay out of the error catalogue; the answer has the same envelope, so a client parses
 * every /api/v1 answer one way.
 */
export const HTTP_ONLY_CODES = {
  MALFORMED_REQUEST: 400,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
} as const;

export type HttpOnlyCode = keyof typeof HTTP_ONLY_CODES;

export function sendHttpError(res: Response, code: HttpOnlyCode, message: string): void {
  const status = HTTP_ONLY_CODES[code];
  res.status(status).json({ success: false, error: { code, message, errorId: randomUUID(), status } });
}

const REFUSAL_CODES: Record<BodyRefusal['status'], HttpOnlyCode> = { 400: 'MALFORMED_REQUEST', 413: 'REQUEST_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** A REST route's JSON body (for the routes that take one), within LIMITS.restRequestBytes. */
export const restJsonBody = jsonBody(LIMITS.restRequestBytes, (res, refusal) => sendHttpError(res, REFUSAL_CODES[refusal.status], refusal.message));

/** A wrong method on a known path: 405 with Allow, instead of Express's HTML 404. */
export const methodNotAllowed =
  (...allowed: string[]) =>
  (req: Request, res: Response): void => {
    res.set('Allow', allowed.join(', '));
    sendHttpError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.baseUrl}${req.path}; use ${allowed.join(' or ')}.`);
  };

/**
 * REST under /api/v1: thin routes over the same services as the MCP tools. Access is checked by the same
 * function the tools use; answers and errors use the tools' envelopes, with the error's status as HTTP status.
 */
export function restRouter(services: Services, logger: Logger, web: WebSession): Router {
  const router = Router();

  const route = (access: Access, handler: Handler) => async (req: Request, res: Response, _next: NextFunction) => {
    try {
      const actor = actorOf(req.auth);
      if (!actor) throw new WaymarkError('UNAUTHENTICATED', 'No valid token: pass a Waymark token as Authorization: Bearer.');
      assertAccess(actor, access);
      const envelope = { success: true, data: await handler(actor, req, res) };
      // A 7 MB step or bit is written and encoded on a conversion thread, as over /mcp (http/mcp/transport.ts); such an
      // answer has no ETag (Express would hash its 16 MB on this thread for one).
      const encoded = await largeAnswerBytes(envelope, logger);
      if (!encoded) res.status(200).json(envelope);
      else res.status(200).type('json').set('Content-Length', String(encoded.byteLength)).end(encoded);
    } catch (error) {
      const body = errorBody(error);
      const line = { route: req.path, errorId: body.errorId, code: body.code, status: body.status };
      if (body.code === 'INTERNAL_ERROR') logger.error({ ...line, err: error }, 'rest call failed');
      else logger.info(line, 'rest call refused');
      const wait = body.details?.retry_after_seconds;
      if (body.code === 'TOO_MANY_REQUESTS' && typeof wait === 'number') res.set('Retry-After', String(wait));
      res.status(body.status).json({ success: false, error: body });
    }
  };

  router
    .route('/bits/:bit_id/restore')
    .post(route({ capability: 'author', permission: 'edit' }, (actor, req) => services.bitRestore.restore(actor, { bit_id: String(storableInput(String(req.params.bit_id))) })))
    .all(methodNotAllowed('POST'));

  // The tools and app operations, each at its path (http/rest/operations.ts); a path's other methods are refused.
  const methods = new Map<string, string[]>();
  for (const operation of REST_OPERATIONS) {
    const { tool } = operation;
    // A tool whose service checks access after finding the records does so in execute.
    const access: Access = tool.access.afterLookup ? { capability: 'any', permission: 'view' } : tool.access;
    const body = operation.method === 'get' ? [] : [restJsonBody];
    router[operation.method](operation.path, ...body, route(access, (actor, req) => tool.execute({ actor, services }, operationArgs(operation, req))));
    methods.set(operation.path, [...(methods.get(operation.path) ?? []), operation.method.toUpperCase()]);
  }

  // Who is signed in, and the CSRF token its session's state-changing requests carry (null with a Bearer token).
  router.get(
    '/me',
    route({ capability: 'any', permission: 'view' }, async (actor, req, res) => {
      const session = web.sessionOf(req);
      const principal = await services.auth.principal(actor.principalId);
      return {
        principal_id: actor.principalId,
        name: principal?.name ?? null,
        kind: actor.kind,
        permission: actor.permission,
        scope_id: actor.scopeId,
        account_id: actor.accountId,
        account_name: await services.auth.accountName(actor.accountId),
        capabilities: actor.capabilities,
        auth: session ? 'session' : 'bearer',
        csrf_token: web.csrfToken(req, res),
        session_expires_date_time_utc: session?.expiresAt ?? null,
      };
    }),
  );
  methods.set('/me', ['GET']);
  router.post(
    '/signout',
    route({ capability: 'any', permission: 'view' }, async (_actor, req, res) => ({ signed_out: await web.signOut(req, res) })),
  );
  methods.set('/signout', ['POST']);
  for (const [path, allowed] of methods) router.all(path, methodNotAllowed(...allowed));

  // Any other path under /api/v1: JSON in the envelope, not Express's HTML 404.
  router.use((req: Request, res: Response) => {
    sendHttpError(res, 'ROUTE_NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}; the routes are described at /api/v1/openapi.json.`);
  });

  return router;
}
