/**
 * The bearer check of /mcp and /api/v1: Waymark tokens through the SDK's middleware, which answers 401 with
 * `WWW-Authenticate: Bearer … resource_metadata=…`. It reads only the Authorization header, so it runs before
 * any body is read.
 */
import { getOAuthProtectedResourceMetadataUrl, requireBearerAuth } from '@modelcontextprotocol/express';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import type { Actor } from '../../services/actor.js';
import type { Services } from '../../services/index.js';

/** The SDK's bearer check refuses tokens without an expiry; ours may have none, so they get a far one. */
const NO_EXPIRY_SECONDS = 100 * 365 * 24 * 3600;

/** An OAuth access token's holder (issue 12), null when the token is not one of ours. */
export type OAuthVerify = (token: string) => Promise<AuthInfo | null>;

/** Waymark tokens (API keys) first, then the access tokens of this server's authorization server. */
function verifier(services: Services, oauth: OAuthVerify): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const actor = await services.auth.authenticate(token);
      if (!actor) {
        const viaOAuth = await oauth(token);
        if (viaOAuth) return viaOAuth;
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown or expired token');
      }
      const { expiresAt, ...rest } = actor;
      return {
        token,
        clientId: actor.principalId,
        scopes: actor.capabilities,
        expiresAt: expiresAt ? Math.floor(Date.parse(expiresAt) / 1000) : Math.floor(Date.now() / 1000) + NO_EXPIRY_SECONDS,
        extra: { actor: rest },
      };
    },
  };
}

export function actorOf(auth: AuthInfo | undefined): Actor | null {
  return (auth?.extra?.actor as Actor | undefined) ?? null;
}

/** `resource` is the MCP endpoint's URL; its protected-resource metadata is named in every challenge. */
export function bearerAuth(services: Services, resource: URL, oauth: OAuthVerify = async () => null): RequestHandler {
  return requireBearerAuth({ verifier: verifier(services, oauth), resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource) });
}
