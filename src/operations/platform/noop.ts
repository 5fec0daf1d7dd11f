import { z } from 'zod';
import { defineTool } from '../operation.js';

/**
 * noop: a tool that does nothing, registered only when WAYMARK_BENCH_NOOP=1 (see server.ts), so that the
 * tool-call bench can measure what a call costs the transport, auth and envelope alone. Production never lists it.
 */
export const noopTool = defineTool({
  name: 'noop',
  title: 'Do nothing (benchmark baseline)',
  description: 'Does nothing and answers {}: the baseline of the tool-call benchmark. Only present when the server runs with WAYMARK_BENCH_NOOP=1.',
  flags: { W: false, D: false, I: false },
  access: { capability: 'any', permission: 'view' },
  input: z.strictObject({}),
  output: z.object({}),
  run: async () => ({}),
});
