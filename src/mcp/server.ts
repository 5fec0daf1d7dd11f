import { McpServer, type ClientCapabilities, type ServerContext, type Tool as ListedTool } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { brand, version } from '../config.js';
import type { Services } from '../services/index.js';
import { clientFeatures } from './apps/client-features.js';
import { listingFor } from './apps/listing.js';
import { registerStepApp } from './apps/step-app.js';
import { registerTool, toolListing, type ActorResolver } from './register.js';
import { allTools } from './tools/index.js';
import { noopTool } from './tools/noop.js';

/**
 * One factory for both transports: stdio and Streamable HTTP differ only in how the actor is resolved, and
 * in what stateless HTTP remembers of the client's initialize (`remembered`, see apps/client-features.ts).
 */
/**
 * `onlyTool`, for a stateless HTTP request's own server: the tool its one tools/call names (a name that is no
 * tool registers them all, for the SDK's own answer), or null when it calls none (tools/list is served from
 * the listing below; initialize needs only the capability). Undefined (stdio, tests): every tool.
 */
export function createMcpServer(services: Services, resolveActor: ActorResolver, logger: Logger, remembered?: ClientCapabilities, onlyTool?: string | null): McpServer {
  const server = new McpServer(
    { name: brand, version },
    { instructions: `Call describe_platform first: it lists what your token may do, the body syntax, limits and error codes.` },
  );
  // The tool-call benchmark's baseline; never registered unless asked for.
  const tools = process.env.WAYMARK_BENCH_NOOP === '1' ? [...allTools(), noopTool] : allTools();
  const featuresOf = (ctx: ServerContext) => clientFeatures(server, ctx, remembered);
  // Registering all 27 tools was a tenth of a small stateless call's CPU: a request gets the handlers it uses.
  const called = onlyTool === null ? [] : tools.filter((tool) => tool.name === onlyTool);
  for (const tool of called.length > 0 || onlyTool === null ? called : tools) registerTool(server, tool, services, resolveActor, logger, featuresOf);
  // What registering a tool declares, the same for every request whichever tools it registered.
  server.server.registerCapabilities({ tools: { listChanged: true } });
  registerStepApp(server);
  // Stateless HTTP builds a server per request; the list of tools is the same for every one of them.
  const key = tools.map((t) => t.name).join(',');
  let served = listings.get(key);
  if (!served) {
    served = { tools: tools.map(toolListing) };
    listings.set(key, served);
  }
  // A client with MCP Apps or form elicitation sees the trail tools' step form (apps/listing.ts).
  const base = served.tools;
  server.server.setRequestHandler('tools/list', (_request, ctx) => ({ tools: listingFor(base, featuresOf(ctx)) }));
  return server;
}

/** The tools/list answer per set of tools (the noop bench tool makes a second set). */
const listings = new Map<string, { tools: ListedTool[] }>();
