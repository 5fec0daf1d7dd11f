/**
 * tools/list over stateless HTTP, answered from the listing serialized once per process. The listing is the
 * same for every request of a client with the same features (27 tools, 40 KB), and a per-request server
 * serialized it again for every call: a quarter of a tools/list's CPU on the server, and the reason a
 * client could list tools at less than half the rate of the SDK's minimal one-tool server (issue "What an
 * agent pays"). Only the plain case is answered here: one 2025-era request `{jsonrpc, id, method:
 * "tools/list"}` with no params (or empty ones), whose headers pass the transport's own checks. Anything
 * else (a cursor, `_meta`, a batch, a bad header) goes to the SDK, which answers it as it always does; the
 * answers agree (`listing.test.ts` compares them).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { featuresOfCapabilities } from '../../mcp/apps/client-features.js';
import { toolsListResultJson } from '../../mcp/server.js';
import type { Registry } from '../../operations/registry.js';

/** The request's id when it is a plain tools/list this module answers, else undefined. */
export function plainToolsListId(req: Request): string | number | undefined {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/list') return undefined;
  const { id, params } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return undefined;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params) || Object.keys(params).length > 0)) return undefined;
  if (Object.keys(message).length !== (params === undefined ? 3 : 4)) return undefined;
  return id;
}

/**
 * Answers a plain tools/list for a client that declared `remembered` at initialize (a stateless request
 * cannot carry a server request back, so form elicitation is never offered here). False when the request
 * is not one: the caller hands it to the SDK.
 */
export function answerToolsList(req: Request, res: Response, remembered: ClientCapabilities | undefined, registry?: Registry): boolean {
  const id = plainToolsListId(req);
  if (id === undefined) return false;
  const result = toolsListResultJson(featuresOfCapabilities(remembered, false), registry);
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.end(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
  return true;
}
