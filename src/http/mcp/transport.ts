/**
 * The transport of one stateless `/mcp` request: the SDK's web-standard Streamable HTTP transport, answering in
 * JSON, where a large answer is written off the event loop.
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
  isJSONRPCResultResponse,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
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
    const listener = getRequestListener(
      async (request) => {
        const response = await this.handleRequest(request, { authInfo: req.auth, parsedBody });
        const encoded = this.encoded;
        if (!encoded || response.status !== 200) return response;
        this.encoded = null;
        const headers = new Headers(response.headers);
        headers.set('Content-Length', String(encoded.byteLength));
        return new Response(encoded, { status: 200, headers });
      },
      { overrideGlobalObjects: false },
    );
    await listener(req, res);
  }
}
