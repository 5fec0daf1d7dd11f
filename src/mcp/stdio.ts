import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';
import type { Registry } from '../operations/registry.js';
import { createMcpServer } from './server.js';

/**
 * MCP over stdio, authenticated by WAYMARK_TOKEN. The token is checked on every call, so one that
 * expires while the process runs stops working; a missing or bad one makes every tool answer UNAUTHENTICATED.
 */
export async function runStdio(services: Services, logger: Logger, token: string | undefined, registry?: Registry): Promise<void> {
  const server = createMcpServer(
    services,
    async () => {
      if (!token) return null;
      const actor = await services.auth.authenticate(token);
      if (!actor) return null;
      const { expiresAt: _expiresAt, ...rest } = actor;
      return rest;
    },
    logger,
    undefined,
    undefined,
    registry,
  );
  const transport = new StdioServerTransport();
  await server.connect(transport);
  if (!token) logger.warn('WAYMARK_TOKEN is not set: every tool will answer UNAUTHENTICATED');
  await new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
}
