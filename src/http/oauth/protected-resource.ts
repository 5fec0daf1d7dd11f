/**
 * Protected-resource metadata (RFC 9728) for /mcp, the document a 401's `WWW-Authenticate: Bearer
 * resource_metadata=…` points to. It names this server's authorization server (oauth/) only where that
 * runs (https, or this machine); otherwise tokens come from `waymark token create` and `authorization_servers`
 * (optional) is left out. The SDK's metadata router required one, and made every plain-HTTP start print
 * "dangerouslyAllowInsecureIssuerUrl is enabled".
 */
import { getOAuthProtectedResourceMetadataUrl, type OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { Router, type Request, type Response } from 'express';
import { allCapabilityNames, brand } from '../../config.js';
import { methodNotAllowed } from '../rest/router.js';

const METHODS = 'GET, HEAD, OPTIONS';

export function protectedResourceMetadata(resource: URL, authorizationServers: string[] = []): OAuthProtectedResourceMetadata {
  return {
    resource: resource.href,
    ...(authorizationServers.length > 0 ? { authorization_servers: authorizationServers } : {}),
    scopes_supported: allCapabilityNames(),
    bearer_methods_supported: ['header'],
    resource_name: brand,
  };
}

/** The document at its well-known path, readable from any origin (RFC 9728 section 3), like the SDK's router. */
export function protectedResourceRouter(resource: URL, authorizationServers: string[] = []): Router {
  const router = Router();
  const document = protectedResourceMetadata(resource, authorizationServers);
  router
    .route(new URL(getOAuthProtectedResourceMetadataUrl(resource)).pathname)
    .get((_req: Request, res: Response) => {
      res.set('Access-Control-Allow-Origin', '*').json(document);
    })
    .options((_req: Request, res: Response) => {
      res.set({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': METHODS, Allow: METHODS }).status(204).end();
    })
    .all(methodNotAllowed('GET', 'HEAD', 'OPTIONS'));
  return router;
}
