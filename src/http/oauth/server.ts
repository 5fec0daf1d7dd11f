/**
 * The authorization server mounted in the HTTP app (issue 12): oidc-provider's endpoints, the
 * protected-resource metadata (RFC 9728) naming it, the consent interaction and the grants page, and the
 * check of OAuth access tokens at /mcp and /api/v1. It exists only where tokens can travel safely: an
 * https public URL, or a loopback one (a person's own machine).
 */
import { OAuthError, OAuthErrorCode, type AuthInfo } from '@modelcontextprotocol/server';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { Services } from '../../services/index.js';
import { isLoopbackAddress, isLoopbackHost } from './addresses.js';
import { consentRouter, type PersonSessions } from './consent.js';
import { createProvider, OAUTH_ROUTES } from './provider.js';
import { registrationGate } from './registration-gate.js';

export type { PersonSessions } from './consent.js';

export interface OAuthServerOptions {
  /** The public URL of this server (issuer of its tokens). */
  base: URL;
  /** <base>/mcp: the resource every token is bound to. */
  resource: URL;
  sessions: PersonSessions;
}

export interface OAuthServer {
  router: Router;
  /** AuthInfo for an OAuth access token of this server, null when the token is not one. */
  verify(token: string): Promise<AuthInfo | null>;
}

/** Whether sign-in may be offered at this public URL: https, or plain http on the person's own machine. */
export function oauthAllowed(base: URL): boolean {
  return base.protocol === 'https:' || isLoopbackHost(base.hostname);
}

/** The one line `serve` prints when sign-in is off, or null. */
export function oauthStartNotice(base: URL): string | null {
  if (oauthAllowed(base)) return null;
  return `OAuth sign-in for remote MCP clients is off: ${base.origin} is plain http and not this machine; set WAYMARK_PUBLIC_URL to the https address in front of this server to turn it on (waymark tokens work either way).`;
}

const PROVIDER_PATHS = [OAUTH_ROUTES.authorization, OAUTH_ROUTES.token, OAUTH_ROUTES.registration, OAUTH_ROUTES.revocation, OAUTH_ROUTES.jwks];
const AS_METADATA = '/.well-known/oauth-authorization-server';
const OIDC_METADATA = '/.well-known/openid-configuration';

const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

function isProviderPath(path: string): boolean {
  return path === AS_METADATA || path === OIDC_METADATA || PROVIDER_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}

interface StoredAccessToken {
  accountId?: string;
  scope?: string;
  aud?: string | string[];
  clientId?: string;
  grantId?: string;
  exp?: number;
  isExpired: boolean;
}

export function createOAuthServer(services: Services, logger: Logger, options: OAuthServerOptions): OAuthServer {
  const enabled = oauthAllowed(options.base);
  const router = Router();
  const resource = options.resource.href;

  if (!enabled) {
    return { router, verify: async () => null };
  }

  // oidc-provider reads its keys from the store, so it starts on first use; one start per process.
  let started: Promise<Provider> | undefined;
  const provider = (): Promise<Provider> => {
    started ??= createProvider(services, { issuer: options.base, resource: options.resource, sessions: options.sessions }).then((p) => {
      p.on('server_error', (_ctx, err) => logger.error({ err }, 'oauth server error'));
      const sweep = setInterval(() => void services.oauth.deleteExpired().catch((err: unknown) => logger.error({ err }, 'oauth sweep failed')), 3600_000);
      sweep.unref();
      return p;
    });
    return started;
  };

  const gate = registrationGate(services);
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (!isProviderPath(req.path)) return next();
    // Plain http is allowed only on this machine: a loopback public URL reached from elsewhere (a server
    // bound to every interface) must not hand out codes and tokens in clear text.
    if (options.base.protocol === 'http:' && !isLoopbackAddress(req.socket.remoteAddress)) {
      res.status(403).json({ error: 'invalid_request', error_description: 'This server issues tokens over plain http only to this machine; use its https address.' });
      return;
    }
    try {
      if (req.method === 'POST' && req.path === OAUTH_ROUTES.registration && !(await gate(req, res))) return;
      const p = await provider();
      // RFC 8414 metadata is the same document as oidc-provider's discovery (a superset).
      req.url = req.path === AS_METADATA ? OIDC_METADATA : req.originalUrl;
      p.callback()(req, res);
    } catch (error) {
      next(error);
    }
  });

  router.use(consentRouter(services, logger, provider, options.sessions, resource));

  return {
    router,
    async verify(token: string): Promise<AuthInfo | null> {
      // Only a string shaped like the library's opaque tokens (256 random bits: 43 url-safe characters) is looked
      // up: anything else (a wrong API token, junk) never starts the library, whose first start (loading it and
      // its keys) holds the event loop a few hundred milliseconds, and then happens on a real sign-in instead.
      if (!OPAQUE_TOKEN.test(token)) return null;
      const p = await provider();
      const found = (await p.AccessToken.find(token, { ignoreExpiration: true })) as StoredAccessToken | undefined;
      // Every token of the code flow belongs to a grant; the grant bounds what it may do (actorFor).
      if (!found?.accountId || !found.grantId) return null;
      if (found.isExpired) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token has expired: refresh it or sign in again');
      const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
      if (!audiences.includes(resource)) throw new OAuthError(OAuthErrorCode.InvalidToken, `The access token was not issued for ${resource}`);
      const actor = await services.oauth.actorFor(found.accountId, found.scope ?? '', found.grantId);
      if (!actor) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The person this token acts for, or the grant it was issued under, no longer exists');
      return { token, clientId: found.clientId ?? '', scopes: actor.capabilities, expiresAt: found.exp, resource: new URL(resource), extra: { actor } };
    },
  };
}
