/**
 * `waymark stdio`: MCP over stdio. Loaded by main.ts only for this command: nothing of `serve` (Express, OAuth,
 * the web app) is imported on this path.
 */
import { createLogger } from '../logger.js';
import { convertPoolOptionsFromEnv, createServices, startConvertPool, stopConvertPool } from '../services/index.js';
import { openStore, storeOptionsFromEnv } from '../store/store.js';
import { parseArgs } from './args.js';
import type { CliIo } from './io.js';

export async function stdio(argv: string[], io: CliIo): Promise<void> {
  parseArgs(argv, { values: [], flags: [] });
  const logger = createLogger({ stderr: true });
  const store = openStore({ ...storeOptionsFromEnv(io.env), offThreadReads: true });
  await store.migrate();
  startConvertPool(convertPoolOptionsFromEnv(io.env));
  try {
    const { runStdio } = await import('../mcp/stdio.js');
    await runStdio(createServices(store), logger, io.env.WAYMARK_TOKEN || undefined);
  } finally {
    await Promise.all([store.close(), stopConvertPool()]);
  }
}
