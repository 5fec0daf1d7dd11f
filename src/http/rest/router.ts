import { randomUUID } from 'node:crypto';
import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { LIMITS } from '../../limits/index.js';
import { errorBody, type ErrorBody } from '../../errors.js';
import { dispatch } from '../../operations/dispatch.js';
import type { Operation, RestRoute, SessionPort } from '../../operations/operation.js';
import { REGISTRY, type Registry } from '../../operations/registry.js';
import type { Services } from '../../services/index.js';
import { actorOf } from '../session/bearer.js';
import { jsonBody, type BodyRefusal } from '../json/body.js';
import { largeAnswerBytes } from '../json/large-answer.js';
import { operationArgs } from './args.js';
import { isSessionAuth, type WebSession } from '../session/session.js';

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

const readJson = jsonBody(LIMITS.restRequestBytes, (res, refusal) => sendHttpError(res, REFUSAL_CODES[refusal.status], refusal.message));

/** A request that carries no body at all: no media type, no length, nothing chunked (a bare POST /signout). */
function bodiless(req: Request): boolean {
  return req.headers['content-type'] === undefined && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
}

/** A POST route's JSON body, within LIMITS.restRequestBytes; a POST with no body at all is an empty input. */
export const restJsonBody: RequestHandler = (req, res, next) => (bodiless(req) ? next() : readJson(req, res, next));

/** A wrong method on a known path: 405 with Allow, instead of Express's HTML 404. */
export const methodNotAllowed =
  (...allowed: string[]) =>
  (req: Request, res: Response): void => {
    res.set('Allow', allowed.join(', '));
    sendHttpError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.baseUrl}${req.path}; use ${allowed.join(' or ')}.`);
  };

/**
 * Literal path segments before parameters, so `/references/search` is matched before `/references/:reference_id`.
 * Literal segments that differ compare as text: an order of every pair (the sort needs one), not only of those
 * that share a prefix, which left `/trails/search` after `/trails/:trail_id` when another path stood between them.
 */
function routeOrder(a: Operation, b: Operation): number {
  const as = (a.rest as RestRoute).path.split('/');
  const bs = (b.rest as RestRoute).path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const ap = as[i].startsWith(':');
    const bp = bs[i].startsWith(':');
    if (ap !== bp) return ap ? 1 : -1;
    if (!ap && as[i] !== bs[i]) return as[i] < bs[i] ? -1 : 1;
  }
  return as.length - bs.length;
}

/**
 * REST under /api/v1: every operation that declares a route (its `rest`), run through the one pipeline (dispatch)
 * as the MCP door runs the tools; answers and errors use the tools' envelopes, with the error's status as HTTP status.
 */
export function restRouter(services: Services, logger: Logger, web: WebSession, registry: Registry = REGISTRY): Router {
  const router = Router();

  const serve = (operation: Operation) => async (req: Request, res: Response, _next: NextFunction) => {
    const session: SessionPort = {
      signedIn: isSessionAuth(req.auth),
      expiresAt: web.sessionOf(req)?.expiresAt ?? null,
      csrfToken: () => web.csrfToken(req, res),
      signOut: () => web.signOut(req, res),
    };
    let args: Record<string, unknown>;
    try {
      args = operationArgs(operation, req);
    } catch (error) {
      sendError(res, errorBody(error));
      return;
    }
    const outcome = await dispatch(operation, { door: 'rest', caller: async () => actorOf(req.auth), services, logger, session }, args);
    if (!outcome.ok) {
      sendError(res, outcome.error);
      return;
    }
    const file = operation.rest?.file;
    if (file) {
      sendFile(req, res, file, outcome.data as { text: string; next_cursor: string | null });
      return;
    }
    const envelope = { success: true, data: outcome.data };
    // A 7 MB step or bit is written and encoded on a conversion thread, as over /mcp (mcp/transport.ts); such an
    // answer has no ETag (Express would hash its 16 MB on this thread for one).
    const encoded = await largeAnswerBytes(envelope, logger);
    if (!encoded) res.status(200).json(envelope);
    else res.status(200).type('json').set('Content-Length', String(encoded.byteLength)).end(encoded);
  };

  // Each operation at its path; a path's other methods are refused.
  const methods = new Map<string, string[]>();
  for (const operation of [...registry.rest].sort(routeOrder)) {
    const { method, path } = operation.rest as RestRoute;
    const body = method === 'post' ? [restJsonBody] : [];
    router[method](path, ...body, serve(operation));
    methods.set(path, [...(methods.get(path) ?? []), method.toUpperCase()]);
  }
  for (const [path, allowed] of methods) router.all(path, methodNotAllowed(...allowed));

  // Any other path under /api/v1: JSON in the envelope, not Express's HTML 404.
  router.use((req: Request, res: Response) => {
    sendHttpError(res, 'ROUTE_NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}; the routes are described at /api/v1/openapi.json.`);
  });

  return router;
}

/**
 * A download (RestRoute.file): the text as an attachment of its media type, and, when it holds only the first part,
 * the address of the next part (the same request with its cursor) as a Link header (RFC 8288).
 */
function sendFile(req: Request, res: Response, file: NonNullable<RestRoute['file']>, data: { text: string; next_cursor: string | null }): void {
  if (data.next_cursor !== null) {
    const next = new URL(req.originalUrl, 'http://origin');
    next.searchParams.set('cursor', data.next_cursor);
    res.set('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
  res.status(200).type(file.mediaType).attachment(file.name).send(data.text);
}

function sendError(res: Response, error: ErrorBody): void {
  const wait = error.details?.retry_after_seconds;
  if (error.code === 'TOO_MANY_REQUESTS' && typeof wait === 'number') res.set('Retry-After', String(wait));
  res.status(error.status).json({ success: false, error });
}
