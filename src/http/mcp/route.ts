/**
 * The MCP endpoint, stateless Streamable HTTP: one server and transport per request, so any number of processes
 * can serve the same store behind a load balancer without sticky sessions. The token is checked first, then the
 * body is read within LIMITS.mcpRequestBytes; every refusal is a JSON-RPC error.
 */
import { PARSE_ERROR, INTERNAL_ERROR, INVALID_REQUEST, type AuthInfo } from '@modelcontextprotocol/server';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from 'pino';
import { LIMITS } from '../../limits/index.js';
import { createMcpServer } from '../../mcp/server.js';
import type { Services } from '../../services/index.js';
import { actorOf } from '../session/bearer.js';
import { jsonBody } from '../json/body.js';
import { ClientMemory } from './clients.js';
import { answerToolsList } from './listing.js';
import { McpRequestTransport } from './transport.js';

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

/** Routes for `/mcp`, to mount at the root. */
export function mcpRouter(services: Services, logger: Logger, bearer: RequestHandler, rateLimit: (readBody: RequestHandler) => { early: RequestHandler; counted: RequestHandler }): Router {
  const router = Router();
  const clients = new ClientMemory();
  const limits = rateLimit(mcpJsonBody);
  router
    .route('/mcp')
    .post(limits.early, bearer, limits.counted, mcpJsonBody, async (req: Request, res: Response) => {
      if (Array.isArray(req.body)) {
        sendRpcError(res, 400, INVALID_REQUEST, BATCH_REFUSAL);
        return;
      }
      const key = ClientMemory.keyOf((req as Request & { auth?: AuthInfo }).auth);
      clients.observe(key, req.body);
      if (answerToolsList(req, res, clients.recall(key))) return;
      const server = createMcpServer(services, async (ctx) => actorOf(ctx.http?.authInfo), logger, clients.recall(key), calledTool(req.body));
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
