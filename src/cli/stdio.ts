/**
 * `waymark stdio`: MCP over stdio. The door (mcp/stdio-door.ts) answers `initialize` with the SDK alone; the
 * store, the services and the tools load after that answer is written (mcp/stdio.ts), and the requests that come
 * meanwhile wait for them. Loaded by main.ts only for this command: nothing of `serve` (Express, OAuth, the web
 * app) is imported on this path.
 */
import { parseArgs } from './args.js';
import type { CliIo } from './io.js';

export async function stdio(argv: string[], io: CliIo): Promise<void> {
  parseArgs(argv, { values: [], flags: [] });
  const { StdioDoor } = await import('../mcp/stdio-door.js');
  const door = new StdioDoor();
  await door.start();
  try {
    if (!(await door.wanted)) return;
    const { runStdio } = await import('../mcp/stdio.js');
    const registry = io.extraOperations ? (await import('../operations/registry.js')).createRegistry(io.extraOperations) : undefined;
    await runStdio(door, io.env, registry);
  } finally {
    await door.close();
  }
}
