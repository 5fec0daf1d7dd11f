/**
 * The authorization server of issue 12 on oidc-provider (OpenID-certified), configured for the MCP
 * authorization spec: authorization code with PKCE S256 only, open dynamic client registration (RFC 7591),
 * Client ID Metadata Documents, refresh tokens rotated on use, revocation (RFC 7009), and access tokens
 * bound by resource indicator (RFC 8707) to this server's /mcp. Nothing else is switched on, so the
 * metadata advertises only what exists.
 */
import type { Configuration, KoaContextWithOIDC, default as Provider } from 'oidc-provider';
import { allCapabilityNames, brand } from '../../config.js';
import type { Services } from '../../services/index.js';
import { SESSION_COOKIE } from '../session/session.js';
import { isLoopbackHost } from './addresses.js';
import type { PersonSessions } from './consent.js';
import { cimdSetting, GUARDED_FETCH_DEFAULTS, guardedFetch } from './guarded-fetch.js';
import { accessTokenTtl, OAUTH_LIFETIMES } from './lifetimes.js';
import { renderErrorPage } from './pages.js';

export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  interaction: '/oauth/interaction',
} as const;

export interface ProviderOptions {
  /** The issuer: the public URL of this server, without a path. */
  issuer: URL;
  /** The one resource tokens are issued for: <public url>/mcp. */
  resource: URL;
  /** Who is signed in to the web app: the provider's own session never outlives that sign-in. */
  sessions: PersonSessions;
}

export async function createProvider(services: Services, options: ProviderOptions): Promise<Provider> {
  // Loaded on the first OAuth request, not at start: on Node.js 20 the library prints a runtime warning
  // when imported, and a start that no client signs in to should print nothing of it.
  const { default: ProviderClass, errors } = await import('oidc-provider');
  const { jwks, cookieKeys } = await services.oauth.secrets();
  const capabilities = allCapabilityNames();
  const resource = options.resource.href;
  const accessTokenTTL = accessTokenTtl();
  const cimd = cimdSetting();

  const configuration: Configuration = {
    adapter: (model: string) => services.oauth.adapter(model),
    jwks,
    cookies: { keys: cookieKeys, names: { session: `_${brand}_oauth_session`, interaction: `_${brand}_oauth_interaction`, resume: `_${brand}_oauth_resume` } },
    // The account of an OAuth grant is a Waymark principal; the tokens carry no claims beyond its id.
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Listed here too (not only as the resource server's scopes below) because clients register with the
    // scopes of the protected-resource metadata, and registration accepts only these.
    scopes: ['openid', 'offline_access', ...capabilities],
    claims: { openid: ['sub'] },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      // No registration access token: registration management (RFC 7592) is off, so it could do nothing, and
      // each would be one more record per anonymous registration that never expires.
      registration: { enabled: true, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // Not checked by the bearer check at /mcp, so not offered.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // WAYMARK_OAUTH_CIMD=off turns it off; its fetches go through guardedFetch (public addresses only).
      clientIdMetadataDocument: { enabled: cimd !== 'off', ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource of this server is ${resource}`);
          return { scope: capabilities.join(' '), audience: resource, accessTokenTTL, accessTokenFormat: 'opaque' };
        },
      },
    },
    // oidc-provider keeps its own session (its cookie) and answers an app approved earlier at once from it.
    // That session stands only while the browser still holds a live web sign-in of the same person: after
    // sign-out, `waymark session revoke` or the sign-in's expiry, the earlier grant is not found, so the
    // request goes to the consent page, which asks the person to sign in (issue 24, finding 8).
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      const client = ctx.oidc.client;
      if (!accountId || !client) return undefined;
      const person = await options.sessions.personOfSecret(ctx.cookies.get(SESSION_COOKIE, { signed: false }));
      if (person?.actor.principalId !== accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(client.clientId);
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // A client that registered for refresh tokens gets one without asking for offline_access: MCP clients
    // stay connected by refreshing, and the grant (which the person can revoke) bounds them.
    fetch: guardedFetch({ ...GUARDED_FETCH_DEFAULTS, allowLoopback: cimd === 'loopback' }),
    // A metadata document is a few hundred bytes; the library fetches key sets and sector lists only for client
    // authentication methods and subject types this server does not offer, bounded all the same.
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024, jwks_uri: 64 * 1024, sector_identifier_uri: 64 * 1024 },
    // Registered redirect URIs (RFC 7591 and metadata documents alike): a code sent over plain http can be read on
    // the way, so plain http only to this machine (RFC 8252 §7.3); native apps' private-use schemes (§7.1) stay
    // allowed, as oidc-provider checks them (issue 24, finding 10).
    extraClientMetadata: {
      properties: ['redirect_uris'],
      validator: (_ctx, key, value) => {
        if (key !== 'redirect_uris' || !Array.isArray(value)) return;
        for (const uri of value) {
          const url = typeof uri === 'string' ? URL.parse(uri) : null;
          if (url?.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
            throw new errors.InvalidClientMetadata(`redirect_uris must use https unless the host is this machine (localhost, 127.0.0.1, [::1]): ${String(uri).slice(0, 200)}`);
          }
        }
      },
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTTL,
      AuthorizationCode: OAUTH_LIFETIMES.authorizationCode,
      RefreshToken: OAUTH_LIFETIMES.refreshToken,
      Grant: OAUTH_LIFETIMES.grant,
      Session: OAUTH_LIFETIMES.session,
      Interaction: OAUTH_LIFETIMES.interaction,
    },
    interactions: { url: (_ctx, interaction) => `${OAUTH_ROUTES.interaction}/${interaction.uid}` },
    routes: {
      authorization: OAUTH_ROUTES.authorization,
      token: OAUTH_ROUTES.token,
      registration: OAUTH_ROUTES.registration,
      revocation: OAUTH_ROUTES.revocation,
      jwks: OAUTH_ROUTES.jwks,
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = renderErrorPage(String(out.error), String(out.error_description ?? ''));
    },
  };

  const provider = new ProviderClass(options.issuer.href.replace(/\/$/, ''), configuration);
  // Behind a TLS proxy (an https public URL in front of a plain listener) the proxy's headers say https.
  provider.proxy = options.issuer.protocol === 'https:';
  return provider;
}
