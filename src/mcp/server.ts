import { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { brand, version } from '../config.js';
import type { Services } from '../services/index.js';
import { registerTool, type ActorResolver } from './register.js';
import { allTools } from './tools/index.js';
import { noopTool } from './tools/noop.js';

/** One factory for both transports: stdio and Streamable HTTP differ only in how the actor is resolved. */
export function createMcpServer(services: Services, resolveActor: ActorResolver, logger: Logger): McpServer {
  const server = new McpServer(
    { name: brand, version },
    { instructions: `Call describe_platform first: it lists what your token may do, the body syntax, limits and error codes.` },
  );
  for (const tool of allTools()) registerTool(server, tool, services, resolveActor, logger);
  // The tool-call benchmark's baseline; never registered unless asked for.
  if (process.env.WAYMARK_BENCH_NOOP === '1') registerTool(server, noopTool, services, resolveActor, logger);
  return server;
}
