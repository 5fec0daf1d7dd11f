/**
 * The transports of one stateless `/mcp` request, where a large answer is written off the event loop: for the
 * 2025 era the SDK's web-standard Streamable HTTP transport, answering in JSON; for the 2026-07-28 era the SDK's
 * own per-request transport (createMcpHandler makes it), whose answer LargeAnswer treats the same way.
 *
 * The SDK writes an answer with `Response.json` inside `send`: one JSON.stringify and one UTF-8 encoding, in the
 * turn that sends it. A trail step or a bit of 7 MB printed as markdown is an answer of about 16 MB (the envelope
 * twice, CONTRACT.md "Every tool answers…"), and that turn held the event loop every account shares for 150–250
 * ms (issue 16). Here such an answer is encoded on a conversion thread; the SDK is given a stand-in result for
 * the same request id, and the response it makes carries the encoded bytes instead. Everything else (headers,
 * protocol versions, notifications, errors) is the SDK's own. Batches never reach it (http/mcp/route.ts refuses them),
 * so a request has at most one answer.
 */
import { getRequestListener } from '@hono/node-server';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type McpServer,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { largeAnswerBytes } from '../json/large-answer.js';

export class McpRequestTransport extends WebStandardStreamableHTTPServerTransport {
  /** The one request's answer, encoded here instead of by the SDK. */
  private encoded: Uint8Array | null = null;
  constructor(private readonly logger: Logger) {
    super({ sessionIdGenerator: undefined, enableJsonResponse: true });
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isJSONRPCResultResponse(message)) {
      const encoded = await largeAnswerBytes(message, this.logger);
      if (encoded) {
        this.encoded = encoded;
        return super.send({ jsonrpc: '2.0', id: message.id, result: {} }, options);
      }
    }
    return super.send(message, options);
  }

  /** Answers the Node request, as the SDK's Node transport does, with an answer encoded here in place of its stand-in. */
  async handleNodeRequest(req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, parsedBody: unknown): Promise<void> {
    await answerNode(req, res, async (request) => {
      const response = await this.handleRequest(request, { authInfo: req.auth, parsedBody });
      const encoded = this.encoded;
      this.encoded = null;
      return withEncodedAnswer(response, encoded);
    });
  }
}

/**
 * The large-answer treatment for a 2026-07-28 request, whose transport the SDK's createMcpHandler makes and
 * connects to the request's server: `attach` wraps that transport's `send` as McpRequestTransport overrides its
 * own, and `apply` puts the encoded bytes in the response in place of the stand-in. A message the handler sends
 * before its result turns the SDK's answer into an event stream, where the result is a frame of its own: the
 * result is then left to the SDK (no Waymark tool sends one; this keeps a future one correct).
 */
export class LargeAnswer {
  private encoded: Uint8Array | null = null;
  private streamed = false;
  constructor(private readonly logger: Logger) {}

  /** Wraps the send of the transport `server` is about to be connected to (its one connection). */
  attach(server: McpServer): void {
    const connect = server.connect.bind(server);
    server.connect = async (transport: Transport) => {
      const send = transport.send.bind(transport);
      transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
        if (isJSONRPCResultResponse(message)) {
          const encoded = this.streamed ? undefined : await largeAnswerBytes(message, this.logger);
          if (encoded) {
            this.encoded = encoded;
            return send({ jsonrpc: '2.0', id: message.id, result: {} }, options);
          }
        } else if (!isJSONRPCErrorResponse(message)) {
          this.streamed = true;
        }
        return send(message, options);
      };
      return connect(transport);
    };
  }

  apply(response: Response): Response {
    const encoded = this.encoded;
    this.encoded = null;
    return withEncodedAnswer(response, encoded);
  }
}

/** `response`, a JSON answer whose result is the stand-in, with `encoded` as its body instead. */
function withEncodedAnswer(response: Response, encoded: Uint8Array | null): Response {
  if (!encoded || response.status !== 200) return response;
  const headers = new Headers(response.headers);
  headers.set('Content-Length', String(encoded.byteLength));
  return new Response(encoded, { status: 200, headers });
}

/** Answers a Node request with the web-standard response `answer` makes of it (the SDK's transports speak fetch). */
export async function answerNode(req: IncomingMessage, res: ServerResponse, answer: (request: Request) => Promise<Response>): Promise<void> {
  await getRequestListener(answer, { overrideGlobalObjects: false })(req, res);
}
