/**
 * `waymark serve` or `waymark stdio` with the no-op tool served beside Waymark's own (the tool-call bench's
 * baseline: what a call costs the transport, the token check, dispatch and the envelope alone). The production
 * server never offers it: it is passed here as an option, not switched on through the environment.
 */
import { main } from '../../src/cli/main.js';
import { noopTool } from '../../src/operations/platform/noop.js';

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, extraOperations: [noopTool] });
if (code !== 0 || !['serve', 'stdio'].includes(process.argv[2] ?? '')) process.exitCode = code;
