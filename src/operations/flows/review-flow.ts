import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { flowId, REVIEW_STATUSES } from './flow-schemas.js';

export const reviewFlowTool = defineOperation({
  name: 'review_flow',
  title: 'Review a flow',
  description:
    'Sets a flow\'s review_status (Admin only). update_flow re-activates a flow only once it is "approved"; the review does not change is_active.',
  flags: { W: true, D: false, I: true },
  access: { capability: 'author', permission: 'admin' },
  // The web app's flow page approves a flow, or asks for changes, from the changes since its approved version.
  rest: { method: 'post', path: '/flows/:flow_id/review', operationId: 'reviewFlow' },
  input: z.strictObject({
    flow_id: flowId,
    review_status: z.enum(REVIEW_STATUSES),
  }),
  output: z.object({ flow_id: z.string(), review_status: z.enum(REVIEW_STATUSES), is_active: z.boolean(), last_modified_date_time_utc: z.string() }),
  run: ({ actor, services }, input) => services.flows.review(actor, input),
});
