import { McpServer, type ClientCapabilities, type ServerContext, type Tool as ListedTool } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';
import { clientFeatures } from './apps/client-features.js';
import type { ClientFeatures } from '../operations/platform/client-features.js';
import { declareListing, listingFor } from './apps/listing.js';
import { registerStepApp } from './apps/step-app.js';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './identity.js';
import { registerTool, toolListing, type ActorResolver } from './register.js';
import { REGISTRY, type Registry } from '../operations/registry.js';

/**
 * One factory for both transports: stdio and Streamable HTTP differ only in how the actor is resolved, and
 * in what stateless HTTP remembers of the client's initialize (`remembered`, see apps/client-features.ts).
 *
 * `onlyTool`, for a stateless HTTP request's own server: the tool its one tools/call names (a name that is no
 * tool registers them all, for the SDK's own answer), or null when it calls none (tools/list is served from
 * the listing below; initialize needs only the capability). Undefined (stdio, tests): every tool.
 * `registry`: what this server serves (the tool-call bench passes one with its no-op tool).
 */
export function createMcpServer(
  services: Services,
  resolveActor: ActorResolver,
  logger: Logger,
  remembered?: ClientCapabilities,
  onlyTool?: string | null,
  registry: Registry = REGISTRY,
): McpServer {
  const server = new McpServer({ ...SERVER_INFO }, { instructions: SERVER_INSTRUCTIONS });
  const tools = registry.tools;
  const featuresOf = (ctx: ServerContext) => clientFeatures(server, ctx, remembered);
  // Registering all 27 tools was a tenth of a small stateless call's CPU: a request gets the handlers it uses.
  const called = onlyTool === null ? [] : tools.filter((tool) => tool.name === onlyTool);
  for (const tool of called.length > 0 || onlyTool === null ? called : tools) registerTool(server, tool, services, resolveActor, logger, featuresOf);
  // What registering a tool declares, the same for every request whichever tools it registered.
  server.server.registerCapabilities({ tools: { listChanged: true } });
  registerStepApp(server);
  // A client with MCP Apps or form elicitation sees the trail tools' step form (apps/listing.ts).
  const base = baseListing(registry);
  server.server.setRequestHandler('tools/list', (_request, ctx) => ({ tools: listingFor(base, featuresOf(ctx)) }));
  return server;
}

/** The tools/list entries per registry, built once per process. */
const listings = new WeakMap<Registry, ListedTool[]>();

function baseListing(registry: Registry): ListedTool[] {
  let listed = listings.get(registry);
  if (!listed) listings.set(registry, (listed = declareListing(registry.tools.map(toolListing), registry.tools)));
  return listed;
}

const listingTexts = new Map<ListedTool[], string>();

/**
 * The result of tools/list as JSON text, for a client with `features`: the same listing the server's own
 * handler answers, serialized once per process and variant (40 KB that every stateless tools/list otherwise
 * serializes again: src/http/mcp/listing.ts).
 */
export function toolsListResultJson(features: ClientFeatures, registry: Registry = REGISTRY): string {
  const listed = listingFor(baseListing(registry), features);
  let text = listingTexts.get(listed);
  if (text === undefined) listingTexts.set(listed, (text = JSON.stringify({ tools: listed })));
  return text;
}
