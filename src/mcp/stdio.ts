import { createLogger } from '../logger.js';
import { convertPoolOptionsFromEnv, createServices, startConvertPool, stopConvertPool } from '../services/index.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { createMcpServer } from './server.js';
import type { StdioDoor } from './stdio-door.js';

/**
 * MCP over stdio, authenticated by WAYMARK_TOKEN: the full server, behind the door that answered the handshake
 * (stdio-door.ts). The token is checked on every call, so one that expires while the process runs stops working;
 * a missing or bad one makes every tool answer UNAUTHENTICATED.
 */
export async function runStdio(door: StdioDoor, env: NodeJS.ProcessEnv): Promise<void> {
  const logger = createLogger({ stderr: true });
  const store = openStore({ ...storeOptionsFromEnv(env), offThreadReads: true });
  await store.migrate();
  startConvertPool(convertPoolOptionsFromEnv(env));
  try {
    const services = createServices(store);
    const token = env.WAYMARK_TOKEN || undefined;
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
    );
    door.onMismatch = (early, full) => logger.error({ door: early, full }, 'the stdio door answered initialize differently from the full server');
    await door.open(server);
    if (!token) logger.warn('WAYMARK_TOKEN is not set: every tool will answer UNAUTHENTICATED');
    await door.closed;
  } finally {
    await Promise.all([store.close(), stopConvertPool()]);
  }
}
