/**
 * The web app's session over HTTP (issue 11): the one-time link redeemed at GET /app/signin, the session
 * cookie, CSRF protection of every state-changing /api/v1 request made with it (csrf-csrf, double submit),
 * and sign-out. The secrets and their lifetimes are SigninService's; this file only speaks HTTP.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import { Router, type CookieOptions, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { brand } from '../../config.js';
import { LIMITS } from '../../limits/index.js';
import { errorBody, WaymarkError } from '../../errors.js';
import type { Logger } from 'pino';
import type { Services } from '../../services/index.js';
import type { RedeemRefusal, SessionActor } from '../../services/auth/signin.service.js';
import { asOperation } from '../../services/events/operation-context.js';
import { signinRefusalPage } from './signin-page.js';

export const SESSION_COOKIE = `${brand}_session`;
export const CSRF_HEADER = 'x-csrf-token';
/** AuthInfo.token of a request authenticated by its session cookie (no Bearer token can be this: it is not a token's shape). */
export const SESSION_AUTH_TOKEN = 'session';

/** Whether a request was authenticated by the person's own session cookie (and passed its CSRF check), not a Bearer token. */
export function isSessionAuth(auth: AuthInfo | undefined): boolean {
  return auth?.token === SESSION_AUTH_TOKEN;
}

export interface WebSession {
  /** cookie-parser, then: an Authorization header → `bearer`; else a live session cookie → req.auth and the CSRF check; else 401. */
  authenticate(bearer: RequestHandler): RequestHandler[];
  /** The session of a request authenticated by its cookie, or undefined (a Bearer token, no session). */
  sessionOf(req: Request): SessionActor | undefined;
  /** A CSRF token for the request's session (sets the CSRF cookie); null without a session. */
  csrfToken(req: Request, res: Response): string | null;
  /** Ends the request's session and clears its cookies; false when the request has no session. */
  signOut(req: Request, res: Response): Promise<boolean>;
  /** GET /signin?token=… under /app. */
  signinRouter(): Router;
}

/** A refusal in the tools' envelope, its status from the error catalogue (errorBody). */
function refusal(res: Response, code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, details?: Record<string, unknown>): void {
  const body = errorBody(new WaymarkError(code, message, details));
  res.status(body.status).json({ success: false, error: body });
}

const REFUSAL_STATUS: Record<RedeemRefusal, 400 | 410> = { unknown: 400, used: 410, expired: 410 };

export interface WebSessionOptions {
  /** Whether the public URL is https: the session cookie is then Secure and the CSRF cookie __Host- prefixed. */
  secure: boolean;
  /** Named in WWW-Authenticate when a request brings neither a token nor a session (RFC 9728), as the bearer check does. */
  resourceMetadataUrl: string;
  /** Sign-ins, refused links and sign-outs are logged (never a secret). */
  logger: Logger;
}

export function webSession(services: Services, options: WebSessionOptions): WebSession {
  const sessions = new WeakMap<Request, SessionActor>();
  const cookie: CookieOptions = { httpOnly: true, sameSite: 'lax', secure: options.secure, path: '/' };
  const csrfCookie = options.secure ? `__Host-${brand}_csrf` : `${brand}_csrf`;
  const { doubleCsrfProtection, generateCsrfToken } = doubleCsrf({
    // Each session signs its CSRF tokens with its own key (SigninService makes it), bound to the session's id.
    getSecret: (req) => (req ? (sessions.get(req)?.csrfSecret ?? '') : ''),
    getSessionIdentifier: (req) => sessions.get(req)?.sessionId ?? '',
    cookieName: csrfCookie,
    cookieOptions: { sameSite: 'strict', secure: options.secure, httpOnly: true, path: '/' },
    getCsrfTokenFromRequest: (req) => req.headers[CSRF_HEADER],
  });
  const parseCookies = cookieParser();

  const clearCookies = (res: Response) => {
    res.clearCookie(SESSION_COOKIE, cookie);
    res.clearCookie(csrfCookie, { ...cookie, sameSite: 'strict' });
  };

  const fromCookie = async (req: Request, res: Response, next: NextFunction, bearer: RequestHandler) => {
    const secret: unknown = req.cookies?.[SESSION_COOKIE];
    if (req.headers.authorization !== undefined) {
      bearer(req, res, next);
      return;
    }
    // Neither a token nor a session: the envelope the app reads (it then shows its sign-in notice), with the
    // challenge an OAuth client reads.
    const challenge = `Bearer error="invalid_token", error_description="No token or session", resource_metadata="${options.resourceMetadataUrl}"`;
    if (typeof secret !== 'string' || secret === '') {
      res.set('WWW-Authenticate', challenge);
      refusal(res, 'UNAUTHENTICATED', 'Sign in: open a sign-in link (waymark signin-link create), or pass a token as Authorization: Bearer.');
      return;
    }
    const session = await services.signin.actorOf(secret);
    if (!session) {
      clearCookies(res);
      res.set('WWW-Authenticate', challenge);
      refusal(res, 'UNAUTHENTICATED', 'Your session has ended (signed out, expired or revoked): open a new sign-in link.');
      return;
    }
    sessions.set(req, session);
    const { sessionId: _id, csrfSecret: _key, name: _name, expiresAt: _end, ...actor } = session;
    const auth: AuthInfo = { token: SESSION_AUTH_TOKEN, clientId: session.principalId, scopes: session.capabilities, expiresAt: Math.floor(Date.parse(session.expiresAt) / 1000), extra: { actor } };
    req.auth = auth;
    doubleCsrfProtection(req, res, (error?: unknown) => {
      if (error) {
        refusal(res, 'FORBIDDEN', `A request made with the session cookie needs the header X-CSRF-Token: read csrf_token from GET /api/v1/me and send it.`, { reason: 'csrf' });
        return;
      }
      next();
    });
  };

  return {
    authenticate: (bearer) => [
      parseCookies,
      (req, res, next) => {
        fromCookie(req, res, next, bearer).catch(next);
      },
    ],
    sessionOf: (req) => sessions.get(req),
    csrfToken: (req, res) => (sessions.has(req) ? generateCsrfToken(req, res) : null),
    async signOut(req, res) {
      const secret: unknown = req.cookies?.[SESSION_COOKIE];
      if (!sessions.has(req) || typeof secret !== 'string') return false;
      await services.signin.signOut(secret);
      clearCookies(res);
      options.logger.info({ principal: sessions.get(req)?.principalId }, 'signed out');
      return true;
    },
    signinRouter() {
      const router = Router();
      router.use(parseCookies);
      router.get('/signin', async (req, res, next) => {
        try {
          // Express answers HEAD with the GET route; a link checker's HEAD must not use up the link.
          if (req.method === 'HEAD') {
            res.set('Cache-Control', 'no-store').status(200).end();
            return;
          }
          const token = typeof req.query.token === 'string' ? req.query.token : '';
          const result = token === '' ? ({ ok: false, reason: 'unknown' } as const) : await asOperation('sign_in', () => services.signin.redeem(token));
          // The link's secret must not leak through the Referer of what the page loads, nor be cached.
          res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
          if (!result.ok) {
            options.logger.info({ reason: result.reason }, 'sign-in link refused');
            res.status(REFUSAL_STATUS[result.reason]).type('html').send(signinRefusalPage(result.reason));
            return;
          }
          // A new sign-in replaces a session this browser still holds.
          const previous: unknown = req.cookies?.[SESSION_COOKIE];
          if (typeof previous === 'string' && previous !== '') await asOperation('sign_in', () => services.signin.signOut(previous));
          res.cookie(SESSION_COOKIE, result.session, { ...cookie, maxAge: LIMITS.sessionAbsoluteMs });
          options.logger.info({ principal: result.principalId }, 'signed in');
          res.redirect(303, '/app/');
        } catch (error) {
          next(error);
        }
      });
      return router;
    },
  };
}
