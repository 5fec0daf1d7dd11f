/**
 * The MCP endpoint, stateless Streamable HTTP: one server and transport per request, so any number of processes
 * can serve the same store behind a load balancer without sticky sessions. The token is checked first, then the
 * body is read within LIMITS.mcpRequestBytes; every refusal is a JSON-RPC error.
 *
 * Both protocol eras are served here, after the same token, rate limits, body limit and batch refusal, by
 * servers from the same createMcpServer (issue 25). A request is classified as the SDK classifies it
 * (classifyInboundRequest, the step of its createMcpHandler): one carrying the 2026-07-28 `_meta` envelope
 * (`server/discover` and every later request of such a client, each with its own client capabilities) goes to
 * the SDK's handler for that era; everything else (initialize and the 2025 era's requests) is served as before,
 * by McpRequestTransport.
 */
import {
  classifyInboundRequest,
  createMcpHandler,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
  type AuthInfo,
  type McpRequestContext,
} from '@modelcontextprotocol/server';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { LIMITS } from '../../limits/index.js';
import { createMcpServer } from '../../mcp/server.js';
import { REGISTRY, type Registry } from '../../operations/registry.js';
import type { Services } from '../../services/index.js';
import { actorOf } from '../session/bearer.js';
import { jsonBody } from '../json/body.js';
import { ClientMemory } from './clients.js';
import { answerToolsList } from './listing.js';
import { answerNode, LargeAnswer, McpRequestTransport } from './transport.js';

/** The code the SDK's transport gives its own HTTP-level refusals (413, 415, 405). */
const SERVER_ERROR = -32000;

export function sendRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

const mcpJsonBody = jsonBody(LIMITS.mcpRequestBytes, (res, refusal) => sendRpcError(res, refusal.status, refusal.status === 400 ? PARSE_ERROR : SERVER_ERROR, refusal.message));

/**
 * A JSON-RPC batch is refused whole, before any of it runs. The 2025-06-18 protocol dropped batching, and
 * serving it was the one way a small request made the server do unbounded work in one go: 100 get_bit of a
 * 4 MB bit in a 2 KB batch held the event loop 5.5 s and took 1–3 GB, since a batch's answers are one array the
 * SDK writes in one turn (issue 24, finding 1). A client of an earlier era sends its messages one by one instead.
 */
export const BATCH_REFUSAL =
  'Invalid request: JSON-RPC batches are not accepted (MCP 2025-06-18 removed batching); send each message in a request of its own.';

/**
 * The tool a request calls, the only one its server needs: the name of one tools/call message, null for one
 * message of another method, undefined for anything else (no tool named: every tool).
 */
function calledTool(body: unknown): string | null | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as { method?: unknown; params?: { name?: unknown } };
  if (message.method !== 'tools/call') return null;
  return typeof message.params?.name === 'string' ? message.params.name : undefined;
}

/** The value of a request header sent once, else undefined. */
function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether the SDK's handler for the 2026-07-28 era answers this request: it carries that era's envelope, or
 * claims the era in a way that handler refuses in its own words (a 2026 MCP-Protocol-Version header without
 * the envelope, headers that disagree with the body). The SDK's own classification, on the parsed body.
 */
function isModernRequest(req: Request): boolean {
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: header(req, 'mcp-protocol-version'),
    mcpMethodHeader: header(req, 'mcp-method'),
    mcpNameHeader: header(req, 'mcp-name'),
    body: req.body,
  });
  return route.kind !== 'legacy';
}

/**
 * A 2026-07-28 client's change stream, refused as the 2025 era's GET stream is: the tools of a stateless
 * server do not change while it runs, and an open stream per client is a connection held for nothing.
 */
const LISTEN_REFUSAL = 'Method not found: subscriptions/listen; this server is stateless and its tools do not change while it runs.';

/** Routes for `/mcp`, to mount at the root. */
export function mcpRouter(
  services: Services,
  logger: Logger,
  bearer: RequestHandler,
  rateLimit: (readBody: RequestHandler) => { early: RequestHandler; counted: RequestHandler },
  registry: Registry = REGISTRY,
): Router {
  const router = Router();
  const clients = new ClientMemory();
  const limits = rateLimit(mcpJsonBody);

  // The 2026-07-28 era: the SDK's handler, with a server per request from the same factory as the 2025 era's.
  // What the factory needs of its request (the tool it calls, where its large answer goes) is kept here by the
  // web request the handler passes it. `legacy: 'reject'`: the 2025 era never reaches it (see the route).
  const exchanges = new WeakMap<globalThis.Request, { onlyTool: string | null | undefined; answer: LargeAnswer }>();
  const modern = createMcpHandler(
    (ctx: McpRequestContext) => {
      const exchange = ctx.requestInfo ? exchanges.get(ctx.requestInfo) : undefined;
      const server = createMcpServer(services, async (c) => actorOf(c.http?.authInfo), logger, undefined, exchange?.onlyTool, registry);
      exchange?.answer.attach(server);
      return server;
    },
    { legacy: 'reject', onerror: (error) => logger.debug({ err: error }, 'mcp request refused or failed (2026-07-28 era)') },
  );
  const serveModern = async (req: Request & { auth?: AuthInfo }, res: Response): Promise<void> => {
    const message = req.body as { id?: unknown; method?: unknown };
    if (message.method === 'subscriptions/listen') {
      res.status(404).json({ jsonrpc: '2.0', error: { code: METHOD_NOT_FOUND, message: LISTEN_REFUSAL }, id: typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null });
      return;
    }
    const exchange = { onlyTool: calledTool(req.body), answer: new LargeAnswer(logger) };
    await answerNode(req, res, async (request) => {
      exchanges.set(request, exchange);
      const response = await modern.fetch(request, { authInfo: req.auth, parsedBody: req.body });
      return exchange.answer.apply(response);
    });
  };

  router
    .route('/mcp')
    .post(limits.early, bearer, limits.counted, mcpJsonBody, async (req: Request, res: Response) => {
      if (Array.isArray(req.body)) {
        sendRpcError(res, 400, INVALID_REQUEST, BATCH_REFUSAL);
        return;
      }
      if (isModernRequest(req)) {
        try {
          await serveModern(req, res);
        } catch (error) {
          logger.error({ err: error }, 'mcp request failed');
          if (!res.headersSent) sendRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
        }
        return;
      }
      const key = ClientMemory.keyOf((req as Request & { auth?: AuthInfo }).auth);
      clients.observe(key, req.body);
      if (answerToolsList(req, res, clients.recall(key), registry)) return;
      const server = createMcpServer(services, async (ctx) => actorOf(ctx.http?.authInfo), logger, clients.recall(key), calledTool(req.body), registry);
      // One JSON answer, not an event stream: no Waymark call sends notifications or requests on the way (a
      // stateless server could not take their answers back), and one write costs far less than SSE framing.
      const transport = new McpRequestTransport(logger);
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleNodeRequest(req, res, req.body);
      } catch (error) {
        logger.error({ err: error }, 'mcp request failed');
        if (!res.headersSent) sendRpcError(res, 500, INTERNAL_ERROR, 'Internal error');
      }
    })
    // No GET stream and no session to DELETE; any other method is refused the same way, in JSON-RPC.
    .all(bearer, (req: Request, res: Response) => {
      res.set('Allow', 'POST');
      sendRpcError(res, 405, SERVER_ERROR, `Method not allowed: ${req.method} /mcp; this server is stateless, use POST.`);
    });
  return router;
}
