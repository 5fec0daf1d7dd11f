import { createLogger } from '../logger.js';
import { convertPoolOptionsFromEnv, createServices, startConvertPool, stopConvertPool } from '../services/index.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Registry } from '../operations/registry.js';
import { createMcpServer } from './server.js';
import type { StdioDoor } from './stdio-door.js';

/**
 * MCP over stdio, authenticated by WAYMARK_TOKEN: the full server, behind the door that answered the handshake
 * (stdio-door.ts). The token is checked on every call, so one that expires while the process runs stops working;
 * a missing or bad one makes every tool answer UNAUTHENTICATED.
 */
export async function runStdio(door: StdioDoor, env: NodeJS.ProcessEnv, registry?: Registry): Promise<void> {
  const logger = createLogger({ stderr: true });
  const store = openStore({ ...storeOptionsFromEnv(env), offThreadReads: true });
  await store.migrate();
  startConvertPool(convertPoolOptionsFromEnv(env));
  try {
    const services = createServices(store);
    const token = env.WAYMARK_TOKEN || undefined;
    const resolveActor = async () => {
      if (!token) return null;
      const actor = await services.auth.authenticate(token);
      if (!actor) return null;
      const { expiresAt: _expiresAt, ...rest } = actor;
      return rest;
    };
    door.onMismatch = (early, full) => logger.error({ door: early, full }, 'the stdio door answered initialize differently from the full server');
    // Both protocol eras: the SDK's serveStdio pins the connection to the era its client opens with (a 2025
    // `initialize`, or a 2026-07-28 request with its `_meta` envelope after a `server/discover` probe) and builds
    // that connection's server from the same factory either way; the door hands it the conversation so far.
    await door.open((transport) =>
      serveStdio(() => createMcpServer(services, resolveActor, logger, undefined, undefined, registry), { transport, onerror: (error) => logger.debug({ err: error }, 'stdio message refused or failed') }),
    );
    if (!token) logger.warn('WAYMARK_TOKEN is not set: every tool will answer UNAUTHENTICATED');
    await door.closed;
  } finally {
    await Promise.all([store.close(), stopConvertPool()]);
  }
}
