import { createMcpExpressApp, getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, requireBearerAuth } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';
import { allCapabilityNames, brand, version } from '../config.js';
import { createMcpServer } from '../mcp/server.js';
import type { Actor } from '../services/actor.js';
import type { Services } from '../services/index.js';
import { openApiDocument } from './openapi.js';
import { methodNotAllowed as restMethodNotAllowed, restRouter } from './rest.js';
import { webSession } from './session.js';
import { webAppRouter } from './web-app.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** The URL clients reach the server at, when it differs from http://host:port (a proxy, TLS). */
  publicUrl?: string;
}

/** The SDK's bearer check refuses tokens without an expiry; ours may have none, so they get a far one. */
const NO_EXPIRY_SECONDS = 100 * 365 * 24 * 3600;

function verifier(services: Services): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const actor = await services.auth.authenticate(token);
      if (!actor) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown or expired token');
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

export function createHttpApp(services: Services, logger: Logger, options: HttpOptions): Express {
  // DNS-rebinding protection (Host and Origin checks) comes with the SDK's app when bound to localhost.
  // Bodies up to 8 MB of markdown travel JSON-escaped, so the parser limit leaves room above that.
  const app = createMcpExpressApp({ host: options.host, jsonLimit: '64mb' });
  const base = new URL(options.publicUrl ?? `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`);
  const mcpUrl = new URL('/mcp', base);

  app.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok', brand, version, engine: services.store.dialect.engine });
  });

  // Protected-resource metadata (RFC 9728). Tokens are issued out of band by `waymark token create`,
  // so the authorization server named here is this server itself.
  app.use(
    mcpAuthMetadataRouter({
      oauthMetadata: {
        issuer: base.href,
        authorization_endpoint: new URL('/authorize', base).href,
        token_endpoint: new URL('/token', base).href,
        response_types_supported: ['code'],
      },
      resourceServerUrl: mcpUrl,
      scopesSupported: allCapabilityNames(),
      resourceName: brand,
      dangerouslyAllowInsecureIssuerUrl: base.protocol === 'http:',
    }),
  );

  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const bearer = requireBearerAuth({ verifier: verifier(services), resourceMetadataUrl });

  // Stateless Streamable HTTP: one server and transport per request, so any number of processes can
  // serve the same store behind a load balancer without sticky sessions.
  app.post('/mcp', bearer, async (req: Request, res: Response) => {
    const server = createMcpServer(services, async (ctx) => actorOf(ctx.http?.authInfo), logger);
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logger.error({ err: error }, 'mcp request failed');
      if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
    }
  });
  const methodNotAllowed = (_req: Request, res: Response) => {
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless, use POST' }, id: null });
  };
  app.get('/mcp', bearer, methodNotAllowed);
  app.delete('/mcp', bearer, methodNotAllowed);

  // The API's description is public, like the protected-resource metadata; the routes need a token.
  app.get('/api/v1/openapi.json', (_req: Request, res: Response) => {
    res.json(openApiDocument());
  });
  app.all('/api/v1/openapi.json', restMethodNotAllowed('GET'));
  // The web app (issue 11): its session is the cookie a sign-in link set; REST takes it or a Bearer token.
  const web = webSession(services, { secure: base.protocol === 'https:', resourceMetadataUrl, logger });
  app.use('/api/v1', ...web.authenticate(bearer), restRouter(services, logger, web));
  app.use('/app', web.signinRouter(), webAppRouter());
  return app;
}
