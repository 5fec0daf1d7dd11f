import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { defineOperation } from '../operation.js';

/**
 * The sample flow's folder (issue 28), for the app's "Add the sample flow": the app imports these files with
 * import_folder (so adding the sample is that operation, its rules and its events), then an Admin approves and
 * activates the flow. A read: it writes nothing.
 */
export const getSampleFlowOperation = defineOperation({
  name: 'get_sample_flow',
  title: 'The sample flow',
  description: 'The sample flow\'s folder (import it with import_folder), and the flow\'s id in your account and scope once it was added (null before).',
  flags: { W: false, D: false, I: true },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'get', path: '/sample-flow', operationId: 'getSampleFlow' },
  mcp: false,
  input: z.strictObject({}),
  output: z.object({
    files: z.array(z.object({ path: z.string().max(LIMITS.folderPathChars), content: z.string() })),
    flow_id: z.string().nullable(),
  }),
  run: ({ actor, services }) => services.sample.get(actor),
});
