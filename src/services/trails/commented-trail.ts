/** get_trail's answer (issue 27): the trail view with its comments, from comment-shapes.ts. */
import { z } from 'zod';
import { stepCommentsShape } from './comment-shapes.js';
import { historyEntryShape, stepViewShape, trailViewShape } from './shapes.js';

/** The trail, its current step with its newest comments, and each history entry's comment count. */
export const commentedTrailShape = trailViewShape.extend({
  current_step: stepViewShape.extend({ comments: stepCommentsShape }).nullable(),
  history: z.array(historyEntryShape.extend({ comment_count: z.number().int() })),
});
export type CommentedTrailView = z.infer<typeof commentedTrailShape>;
