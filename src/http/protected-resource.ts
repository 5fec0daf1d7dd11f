/**
 * Protected-resource metadata (RFC 9728) for /mcp, the document a 401's `WWW-Authenticate: Bearer
 * resource_metadata=…` points to. Tokens are issued out of band (`waymark token create`), so it names no
 * authorization server (`authorization_servers` is optional): the SDK's metadata router required one, and naming
 * this server as its own plain-HTTP authorization server made it print "dangerouslyAllowInsecureIssuerUrl is
 * enabled" at every start and serve authorization-server metadata for endpoints that do not exist.
 */
import { getOAuthProtectedResourceMetadataUrl, type OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { Router, type Request, type Response } from 'express';
import { allCapabilityNames, brand } from '../config.js';
import { methodNotAllowed } from './rest.js';

const METHODS = 'GET, HEAD, OPTIONS';

export function protectedResourceMetadata(resource: URL): OAuthProtectedResourceMetadata {
  return {
    resource: resource.href,
    scopes_supported: allCapabilityNames(),
    bearer_methods_supported: ['header'],
    resource_name: brand,
  };
}

/** The document at its well-known path, readable from any origin (RFC 9728 section 3), like the SDK's router. */
export function protectedResourceRouter(resource: URL): Router {
  const router = Router();
  const document = protectedResourceMetadata(resource);
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
