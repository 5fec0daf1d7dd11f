import { getOAuthProtectedResourceMetadataUrl, localhostHostValidation, localhostOriginValidation } from '@modelcontextprotocol/express';
import { frontDoorRouter } from './front-door.js';
import { INTERNAL_ERROR, INVALID_REQUEST } from '@modelcontextprotocol/server';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { brand, version } from '../config.js';
import { errorBody } from '../errors.js';
import { processQuotas } from '../quotas.js';
import { nextArrival } from '../services/arrivals.js';
import type { Services } from '../services/index.js';
import { bearerAuth } from './session/bearer.js';
import { REGISTRY, type Registry } from '../operations/registry.js';
import { signedInPersons } from './oauth/person-session.js';
import { createOAuthServer, oauthAllowed } from './oauth/server.js';
import { closeUnreadBodies } from './json/body.js';
import { LiveHub, type LiveOptions } from './live/live-hub.js';
import { liveRouter } from './live/live-route.js';
import { mcpRouter, sendRpcError } from './mcp/route.js';
import { openApiDocument } from './rest/openapi.js';
import { protectedResourceRouter } from './oauth/protected-resource.js';
import { rateLimits } from './rate-limit.js';
import { SharedCounters } from '../services/shared-counters.js';
import { methodNotAllowed as restMethodNotAllowed, restRouter, sendHttpError } from './rest/router.js';
import { webSession } from './session/session.js';
import { webAppRouter } from './web-app.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** The URL clients reach the server at, when it differs from http://host:port (a proxy, TLS). */
  publicUrl?: string;
  /**
   * Which proxies' X-Forwarded-For to believe for a client's address (Express's `trust proxy`: true, a hop count,
   * or addresses such as `loopback`); default `loopback` behind an https public URL, else none.
   */
  trustProxy?: boolean | number | string;
  /** The operations served (default: Waymark's own; the tool-call bench adds its no-op tool). */
  registry?: Registry;
  /** How often live updates poll the store, and how often an idle stream gets a heartbeat (live/live-hub.ts). */
  live?: LiveOptions;
}

/** Each app's live-update hub: whoever serves the app ends its streams before closing the server (closeLiveStreams). */
const HUBS = new WeakMap<Express, LiveHub>();

/**
 * Ends the app's live-update streams and stops their poller. Call it before closing the HTTP server: an open
 * stream is an active request, which server.close() would otherwise wait for.
 */
export async function closeLiveStreams(app: Express): Promise<void> {
  await HUBS.get(app)?.close();
}

/** WAYMARK_TRUST_PROXY as Express's `trust proxy` takes it. */
export function trustProxyOption(text: string | undefined): HttpOptions['trustProxy'] {
  if (text === undefined || text === '') return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  return /^\d+$/.test(text) ? Number(text) : text;
}

const LOCALHOST = ['127.0.0.1', 'localhost', '::1'];

/** The URL clients reach this server at: WAYMARK_PUBLIC_URL, else the address it listens on. */
export function publicBase(options: HttpOptions): URL {
  return new URL(options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`);
}

/**
 * The HTTP app. No body parser for the whole app: each route that takes a body reads it after its bearer check,
 * within its own limit (http/json/body.ts). Every answer is JSON, refusals and faults included; Express's HTML pages (with
 * a stack trace and absolute paths) never reach a client.
 */
export function createHttpApp(services: Services, logger: Logger, options: HttpOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Each request's place in the order of arrivals, taken before anything of it waits (arrivals.ts).
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.locals.arrival = nextArrival();
    next();
  });
  app.use(closeUnreadBodies);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    // Answers are JSON: a browser must not sniff one into HTML or script.
    res.set('X-Content-Type-Options', 'nosniff');
    // Nothing of this origin is for a frame (the app's pages also say frame-ancestors 'none'): a step's iframe
    // element that points here, even through a redirect, loads nothing that could lift its sandbox (issue 24).
    res.set('X-Frame-Options', 'DENY');
    next();
  });
  // DNS-rebinding protection (Host and Origin checks) when bound to localhost, as the SDK's createMcpExpressApp
  // does (that app also parses every body, before any route, which is why it is not used).
  if (LOCALHOST.includes(options.host)) {
    app.use(localhostHostValidation());
    app.use(localhostOriginValidation());
  } else if (options.host === '0.0.0.0' || options.host === '::') {
    logger.warn({ host: options.host }, 'bound to every interface without Host checks (DNS-rebinding protection); tokens still guard every route');
  }

  const base = publicBase(options);
  const mcpUrl = new URL('/mcp', base);
  // The authorization server for remote MCP clients (issue 12), where it may run (https, or this machine).
  const oauth = createOAuthServer(services, logger, { base, resource: mcpUrl, sessions: signedInPersons(services) });
  const bearer = bearerAuth(services, mcpUrl, oauth.verify);
  const limits = rateLimits(processQuotas(), new SharedCounters(services.store));
  // Per-address limits read the client's address: behind a TLS proxy (an https public URL) the proxy's header says it.
  app.set('trust proxy', options.trustProxy ?? (base.protocol === 'https:' ? 'loopback' : false));

  app.use(frontDoorRouter());
  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok', brand, version, engine: services.store.dialect.engine });
  });
  app.use(protectedResourceRouter(mcpUrl, oauthAllowed(base) ? [base.origin] : []));
  // The doors that take no token, per network address (registration also per hour: each one is stored).
  app.use(['/oauth', '/app/signin'], limits.anonymous);
  app.use('/oauth/register', limits.registration);
  app.use(oauth.router);
  const registry = options.registry ?? REGISTRY;
  app.use(mcpRouter(services, logger, bearer, limits.mcp, registry));

  // The API's description is public, like the protected-resource metadata; the routes need a token.
  app.get('/api/v1/openapi.json', (_req: Request, res: Response) => {
    res.json(openApiDocument(registry));
  });
  app.all('/api/v1/openapi.json', restMethodNotAllowed('GET'));
  // The web app (issue 11): its session is the cookie a sign-in link set; REST takes it or a Bearer token.
  const web = webSession(services, { secure: base.protocol === 'https:', resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), logger });
  // Live updates (issue 27): one hub per app, its streams ended by closeLiveStreams.
  const live = new LiveHub(services.store, logger, options.live);
  HUBS.set(app, live);
  app.use('/api/v1', limits.rest.early, ...web.authenticate(bearer), limits.rest.counted, liveRouter(live), restRouter(services, logger, web, registry));
  app.use('/app', web.signinRouter(), webAppRouter());

  app.use((req: Request, res: Response) => {
    sendHttpError(res, 'ROUTE_NOT_FOUND', `No route ${req.method} ${req.path}: MCP is at POST /mcp, REST under /api/v1 (/api/v1/openapi.json).`);
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const status = (error as { status?: unknown }).status;
    const clientFault = typeof status === 'number' && status >= 400 && status < 500;
    if (!clientFault) logger.error({ err: error, path: req.path }, 'http request failed');
    if (req.path === '/mcp') {
      if (clientFault) sendRpcError(res, 400, INVALID_REQUEST, 'Invalid request: the request could not be read.');
      else sendRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
    } else if (clientFault) {
      sendHttpError(res, 'MALFORMED_REQUEST', 'The request could not be read (a malformed path or header).');
    } else {
      res.status(500).json({ success: false, error: errorBody(error) });
    }
  });
  return app;
}
