/**
 * The person's side of the authorization server: the consent interaction oidc-provider sends the browser
 * to, and the page listing the apps a person has let in. Who the person is comes from the web app's
 * sign-in session (PersonSessions); a person not signed in is asked to sign in and come back.
 */
import cookieParser from 'cookie-parser';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type Provider from 'oidc-provider';
import { WaymarkError } from '../../errors.js';
import type { Actor } from '../../services/actor.js';
import type { Services } from '../../services/index.js';
import { capabilitiesIn, grantableCapabilities } from '../../services/auth/oauth.service.js';
import { asOperation } from '../../services/events/operation-context.js';
import { renderConsentPage, renderErrorPage, renderGrantsPage, renderRevokeConfirmPage, renderSignInNeededPage } from './pages.js';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { dispatch } from '../../operations/dispatch.js';
import type { Operation, SessionPort } from '../../operations/operation.js';
import { listGrantsOperation, listOwnTokensOperation, revokeGrantOperation, revokeOwnTokenOperation } from '../../operations/auth/connected-apps.js';
import type { grantListShape, ownTokenListShape } from '../../services/auth/shapes.js';

type GrantList = z.infer<typeof grantListShape>;
type OwnTokenList = z.infer<typeof ownTokenListShape>;

/** The connected-apps page is reached only with the person's own session cookie (PersonSessions.personOf). */
const PERSON_PAGE: SessionPort = { signedIn: true, expiresAt: null, csrfToken: () => null, signOut: async () => false };

/** Form bodies of the pages' POSTs, parsed only on those routes. */
const formBody = express.urlencoded({ extended: false, limit: '16kb' });

/** The person signed in to the web app on a request, as its sign-in session says. */
export interface PersonSessions {
  personOf(req: Request): Promise<{ actor: Actor; name: string } | null>;
  /** The same, from the session cookie's value (where no Express request is at hand: inside oidc-provider). */
  personOfSecret(secret: unknown): Promise<{ actor: Actor; name: string } | null>;
}

/** No script runs on these pages; forms post here, and the consent form's answer may go to the client. */
function securityHeaders(res: Response, formTargets: string[] = []): void {
  res.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${["'self'", ...formTargets].join(' ')}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Content-Type-Options': 'nosniff',
    // Not no-referrer: with it, browsers send `Origin: null` on the form posts, which the origin checks refuse.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
}

/**
 * Chromium applies form-action to the redirects that follow a form post, and the consent form ends in a
 * redirect to the client, so the client's redirect origin (or custom scheme) is an allowed target there.
 */
function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

/** A page's POST must come from this server's own pages (with the session cookie's SameSite=Lax, a second lock). */
function sameOrigin(req: Request): boolean {
  const origin = req.get('origin');
  return origin === undefined || origin === `${req.protocol}://${req.get('host')}`;
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === 'string' ? [value] : [];
}

export function consentRouter(services: Services, logger: Logger, provider: () => Promise<Provider>, sessions: PersonSessions, resource: string): Router {
  const router = Router();
  router.use(['/oauth/interaction', '/oauth/grants', '/oauth/tokens'], cookieParser());

  const page = (handler: (req: Request, res: Response, p: Provider) => Promise<void>) => async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.method === 'POST' && !sameOrigin(req)) {
        securityHeaders(res);
        res.status(403).type('html').send(renderErrorPage('forbidden', 'This form may be sent only from this server’s own page.'));
        return;
      }
      await handler(req, res, await provider());
    } catch (error) {
      if (error instanceof WaymarkError) {
        securityHeaders(res);
        res.status(404).type('html').send(renderErrorPage(error.code, error.message));
        return;
      }
      const name = (error as { name?: string }).name;
      // oidc-provider's own refusals (an expired or unknown interaction) are the person's to read.
      if (name === 'SessionNotFound' || name === 'InvalidRequest') {
        securityHeaders(res);
        res.status(400).type('html').send(renderErrorPage('interaction_expired', 'This sign-in request is no longer valid; start again from your app.'));
        return;
      }
      next(error);
    }
  };

  router.get(
    '/oauth/interaction/:uid',
    page(async (req, res, p) => {
      const details = await p.interactionDetails(req, res);
      const client = await p.Client.find(String(details.params.client_id));
      const clientName = client?.clientName ?? String(details.params.client_id);
      const person = await sessions.personOf(req);
      const redirectUri = String(details.params.redirect_uri);
      securityHeaders(res, [redirectTarget(redirectUri)]);
      if (!person) {
        res.status(200).type('html').send(renderSignInNeededPage(details.uid, clientName));
        return;
      }
      const requested = capabilitiesIn(String(details.params.scope ?? ''));
      const grantable = new Set(grantableCapabilities(person.actor));
      res.status(200).type('html').send(
        renderConsentPage({
          uid: details.uid,
          clientName,
          clientId: String(details.params.client_id),
          redirectHost: new URL(redirectUri).host || redirectUri,
          personName: person.name,
          capabilities: requested.filter((c) => grantable.has(c)),
          unavailable: requested.filter((c) => !grantable.has(c)),
        }),
      );
    }),
  );

  router.post(
    '/oauth/interaction/:uid/confirm',
    formBody,
    page(async (req, res, p) => {
      const details = await p.interactionDetails(req, res);
      const person = await sessions.personOf(req);
      if (!person) {
        securityHeaders(res);
        res.status(401).type('html').send(renderSignInNeededPage(details.uid, String(details.params.client_id)));
        return;
      }
      const requested = capabilitiesIn(String(details.params.scope ?? ''));
      const chosen = new Set(asList((req.body as Record<string, unknown> | undefined)?.capability));
      // A forged answer ticking what the page did not offer grants nothing of it: beyond the person's bound,
      // a capability is recorded on the grant as refused, which the grant's tokens can never carry.
      const grantable = new Set(grantableCapabilities(person.actor));
      const granted = requested.filter((c) => chosen.has(c) && grantable.has(c));
      const refused = requested.filter((c) => !granted.includes(c));
      const accountId = person.actor.principalId;
      // A grant from an earlier consent of another person in this browser is not reused.
      const existing = details.grantId && details.session?.accountId === accountId ? await p.Grant.find(details.grantId) : undefined;
      const grant = existing ?? new p.Grant({ accountId, clientId: String(details.params.client_id) });
      // The capabilities are scopes of the authorization server and of the resource /mcp (provider.ts): both
      // are granted or refused, the resource's are what the access token carries.
      const protocolScopes = String(details.params.scope ?? '').split(' ').filter((s) => s === 'openid' || s === 'offline_access');
      const oidcGranted = [...protocolScopes, ...granted];
      if (oidcGranted.length > 0) grant.addOIDCScope(oidcGranted.join(' '));
      if (granted.length > 0) grant.addResourceScope(resource, granted.join(' '));
      if (refused.length > 0) {
        grant.rejectOIDCScope(refused.join(' '));
        grant.rejectResourceScope(resource, refused.join(' '));
      }
      const grantId = await asOperation('grant_access', () => grant.save());
      await p.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    }),
  );

  router.post(
    '/oauth/interaction/:uid/abort',
    formBody,
    page(async (req, res, p) => {
      await p.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person did not allow access.' }, { mergeWithLastSubmission: false });
    }),
  );

  router.get(
    '/oauth/grants',
    page(async (req, res) => {
      securityHeaders(res);
      const person = await sessions.personOf(req);
      if (!person) {
        res.status(401).type('html').send(renderErrorPage('not_signed_in', 'Sign in to the web app with your sign-in link first, then come back to this page.'));
        return;
      }
      const { grants } = (await asPerson(person.actor, listGrantsOperation, {})) as GrantList;
      const { tokens } = (await asPerson(person.actor, listOwnTokensOperation, {})) as OwnTokenList;
      res.status(200).type('html').send(renderGrantsPage(person.name, grants, tokens));
    }),
  );

  /**
   * The connected-apps page is a door of the same operations as /api/v1/oauth (dispatch): the person's own session
   * cookie is its credential. A refusal is thrown to `page`, which shows it.
   */
  const asPerson = async (actor: Actor, operation: Operation, args: Record<string, unknown>): Promise<unknown> => {
    const outcome = await dispatch(operation, { door: 'page', caller: async () => actor, services, logger, session: PERSON_PAGE }, args);
    if (!outcome.ok) throw new WaymarkError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.data;
  };

  /** A revoke button of the connected-apps page: the signed-in person's own record, then back to the page. */
  const revokeRoute = (path: string, revoke: (actor: Actor, id: string) => Promise<unknown>) =>
    router.post(
      path,
      formBody,
      page(async (req, res) => {
        const person = await sessions.personOf(req);
        if (!person) {
          securityHeaders(res);
          res.status(401).type('html').send(renderErrorPage('not_signed_in', 'Sign in to the web app with your sign-in link first.'));
          return;
        }
        await revoke(person.actor, String(req.params.id));
        res.redirect(303, '/oauth/grants');
      }),
    );
  revokeRoute('/oauth/grants/:id/revoke', (actor, id) => asPerson(actor, revokeGrantOperation, { grant_id: id }));
  revokeRoute('/oauth/tokens/:id/revoke', (actor, id) => asPerson(actor, revokeOwnTokenOperation, { token_id: id }));

  /** Each revocation is asked once more on a page of its own; only its POST changes anything. */
  const confirmRoute = (path: string, question: (actor: Actor, id: string) => Promise<{ title: string; text: string; button: string } | null>) =>
    router.get(
      path,
      page(async (req, res) => {
        securityHeaders(res);
        const person = await sessions.personOf(req);
        if (!person) {
          res.status(401).type('html').send(renderErrorPage('not_signed_in', 'Sign in to the web app with your sign-in link first.'));
          return;
        }
        const id = String(req.params.id);
        const asked = await question(person.actor, id);
        if (!asked) {
          res.status(404).type('html').send(renderErrorPage('not_found', 'There is no such app or key of yours: it may be revoked already.'));
          return;
        }
        res.status(200).type('html').send(renderRevokeConfirmPage({ ...asked, action: path.replace(':id', encodeURIComponent(id)) }));
      }),
    );
  confirmRoute('/oauth/grants/:id/revoke', async (actor, id) => {
    const { grants } = (await asPerson(actor, listGrantsOperation, {})) as GrantList;
    const app = grants.find((g) => g.grant_id === id);
    if (!app) return null;
    const name = app.client_name ?? app.client_id;
    return { title: `Disconnect ${name}?`, text: `${name} loses its access at once: every token it holds stops working. It has to ask you again to come back.`, button: `Disconnect ${name}` };
  });
  confirmRoute('/oauth/tokens/:id/revoke', async (actor, id) => {
    const { tokens } = (await asPerson(actor, listOwnTokensOperation, {})) as OwnTokenList;
    if (!tokens.some((t) => t.token_id === id)) return null;
    return { title: `Revoke API token ${id.slice(0, 8)}?`, text: 'Every MCP client configured with this token stops working at once. A revoked token cannot be restored.', button: 'Revoke the token' };
  });

  return router;
}
