import type { ServerCapabilities } from '@modelcontextprotocol/server';
import { brand, version } from '../config.js';

/**
 * What the server says of itself in its answer to `initialize`, apart from its tools: kept here, away from the
 * tools and the services, so that `waymark stdio` can answer the handshake before it loads them
 * (stdio-door.ts). createMcpServer (server.ts) builds every server from the same values.
 */
export const SERVER_INFO = { name: brand, version } as const;

export const SERVER_INSTRUCTIONS = `Call describe_platform first: it lists what your token may do, the body syntax, limits and error codes.`;

/**
 * The capabilities a full server declares once its registrations are made: `tools` (server.ts) and
 * `resources` (the step form's MCP App, apps/step-app.ts). The stdio door declares them before it has the
 * tools; a test holds the two equal (stdio-door.test.ts), and the door checks its answer against the full
 * server's when it hands over.
 */
export const SERVER_CAPABILITIES: ServerCapabilities = { tools: { listChanged: true }, resources: { listChanged: true } };
