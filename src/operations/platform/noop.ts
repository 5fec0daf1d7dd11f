import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { ANY_TOKEN_ACCESS } from '../../services/actor.js';

/**
 * noop: a tool that does nothing, served only by a server given it as an extra operation (the tool-call bench's
 * bench/servers/waymark-with-noop.ts), so that the bench can measure what a call costs the transport, auth,
 * dispatch and envelope alone. It is in no registry of Waymark's own: production never lists it.
 */
export const noopTool = defineOperation({
  name: 'noop',
  title: 'Do nothing (benchmark baseline)',
  description: 'Does nothing and answers {}: the baseline of the tool-call benchmark. Only present in the server of the tool-call benchmark.',
  flags: { W: false, D: false, I: false },
  access: ANY_TOKEN_ACCESS,
  input: z.strictObject({}),
  output: z.object({}),
  run: async () => ({}),
});
