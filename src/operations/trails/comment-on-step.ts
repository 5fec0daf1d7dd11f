/**
 * Talking on a step (issue 27): comment_on_step (MCP, REST and the app) and the comments list the app reads
 * (REST only). Commenting takes what running the trail takes (submit_step_data's access): whoever may work a
 * trail may ask about it; reading is get_trail's.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { commentPageShape, commentShape } from '../../services/trails/comment-shapes.js';
import { cursor, recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';
import { submitStepDataTool } from './submit-step-data.js';
import { getTrailTool } from './get-trail.js';
import { trailId } from './trail-schemas.js';

export const commentOnStepTool = defineOperation({
  name: 'comment_on_step',
  title: 'Comment on a step',
  description: 'Comments on a trail step (default: current); @name or @email notifies them.',
  flags: { W: true, D: false, I: false },
  access: submitStepDataTool.access,
  rest: { method: 'post', path: '/trails/:trail_id/comments', operationId: 'commentOnStep' },
  input: z.strictObject({
    trail_id: trailId,
    step_id: recordId().optional(),
    text: z.string().max(LIMITS.commentLength),
  }),
  // What the caller does not know yet: whom its mentions named. get_trail shows the comment whole; tools/list's
  // budget (test/tool-budget.test.ts) holds no more.
  output: commentShape.pick({ mentions: true }),
  run: async ({ actor, services }, input) => ({ mentions: (await services.comments.add(actor, input)).mentions }),
});

export const trailCommentsOperation = defineOperation({
  name: 'trail_comments',
  title: 'A trail\'s comments',
  description: `The comments on a trail's steps (or on one step, with step_id), oldest first, each with its author and mentions by name; total counts them all. Errors: TRAIL_NOT_FOUND, STEP_NOT_FOUND, VALIDATION_ERROR (a bad cursor).`,
  flags: { W: false, D: false, I: true },
  access: getTrailTool.access,
  rest: { method: 'get', path: '/trails/:trail_id/comments', operationId: 'listTrailComments' },
  mcp: false,
  input: z.strictObject({
    trail_id: trailId,
    step_id: recordId('Only this step\'s comments.').optional(),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, 1 to ${LIMITS.pageSize}; default ${LIMITS.defaultPageSize}.`),
    cursor: cursor.optional().describe('next_cursor of the previous page; omit for the first page.'),
  }),
  output: commentPageShape,
  run: ({ actor, services }, input) => services.comments.list(actor, input),
});
