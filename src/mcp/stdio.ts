import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';
import type { Registry } from '../operations/registry.js';
import { createMcpServer } from './server.js';

/**
 * MCP over stdio, authenticated by WAYMARK_TOKEN. The token is checked on every call, so one that
 * expires while the process runs stops working; a missing or bad one makes every tool answer UNAUTHENTICATED.
 *
 * Both protocol eras (issue 25): the SDK's serveStdio pins the connection to the era its client opens with, a
 * 2025 `initialize` or a 2026-07-28 request with its `_meta` envelope (after a `server/discover` probe, if the
 * client sends one), and builds that connection's one server from the same factory either way.
 */
export async function runStdio(services: Services, logger: Logger, token: string | undefined, registry?: Registry): Promise<void> {
  const resolveActor = async () => {
    if (!token) return null;
    const actor = await services.auth.authenticate(token);
    if (!actor) return null;
    const { expiresAt: _expiresAt, ...rest } = actor;
    return rest;
  };
  const handle = serveStdio(() => createMcpServer(services, resolveActor, logger, undefined, undefined, registry), { onerror: (error) => logger.debug({ err: error }, 'stdio message refused or failed') });
  if (!token) logger.warn('WAYMARK_TOKEN is not set: every tool will answer UNAUTHENTICATED');
  await new Promise<void>((resolve) => {
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await handle.close();
}
