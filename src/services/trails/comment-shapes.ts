/**
 * Comments on a trail's steps (issue 27, "Talking on a step"), as zod schemas written once: the services' types and
 * the output schemas of comment_on_step, the comments list, get_trail (commented-trail.ts) and the step form's
 * payload (shapes.ts, which this file must not import: it imports this one).
 */
import { z } from 'zod';
import { PRINCIPAL_KINDS } from '../../store/enums.js';

/** A principal named on a comment, by name (a comment is read by people). */
const namedShape = z.object({ principal_id: z.string(), name: z.string() });

export const commentShape = z.object({
  comment_id: z.string(),
  step_id: z.string(),
  author: namedShape.extend({ kind: z.enum(PRINCIPAL_KINDS) }),
  /** As written, trimmed: plain text, never markup (every reader shows it as text). */
  text: z.string(),
  /** The people the text mentions with `@`, as they are named now. */
  mentions: z.array(namedShape),
  created_date_time_utc: z.string(),
});
export type CommentView = z.infer<typeof commentShape>;

/** A step's newest comments, oldest of them first, with how many it has and where the rest are. */
export const stepCommentsShape = z.object({
  total: z.number().int(),
  latest: z.array(commentShape),
  /** How to read the older ones; null when `latest` holds them all. */
  more: z.string().nullable(),
});
export type StepComments = z.infer<typeof stepCommentsShape>;

/** A page of a trail's comments (or one step's), oldest first. */
export const commentPageShape = z.object({
  comments: z.array(commentShape),
  total: z.number().int(),
  next_cursor: z.string().nullable(),
});
export type CommentPage = z.infer<typeof commentPageShape>;
