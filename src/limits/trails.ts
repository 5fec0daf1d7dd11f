/** hostile-trails: trails and trail_context_schema bounded (issue 16, findings 1, 5, 7); our bounds, not the document's. */
export const TRAIL_LIMITS = {
  /** trail_context_schema as JSON text (64 KB), its properties, and the choices of one enum/oneOf/anyOf. */
  contextSchemaBytes: 64 * 1024,
  contextSchemaProperties: 100,
  contextSchemaChoices: 500,
  /** trail_context as JSON text (64 KB), its keys, the items of one array in it, and its nesting. */
  trailContextBytes: 64 * 1024,
  trailContextKeys: 200,
  trailContextArrayItems: 500,
  trailContextDepth: 8,
  /** One answer's value, one submit_step_data call, one step's answers, one trail's answers (JSON bytes). */
  answerValueBytes: 256 * 1024,
  answersPerCallBytes: 1024 * 1024,
  answersPerStepBytes: 4 * 1024 * 1024,
  answersPerTrailBytes: 8 * 1024 * 1024,
  /** Steps one trail may enter: a cycle cannot grow a trail forever. */
  stepsPerTrail: 1000,
  /** Answers in one submit_step_data call. */
  answersPerCall: 200,
  /** A comment on a step (comment_on_step), in characters after trimming: a question or a note, not a document. */
  commentLength: 4000,
  /** The newest comments of the current step that get_trail and the step form show (the rest: the comments list). */
  commentsShown: 20,
  /** Distinct `@` words of one comment looked up as mentions; later ones stay plain text. */
  mentionsPerComment: 20,
  /** The excerpt of a comment a mentioned person is told (the notification, the mail). */
  mentionExcerptLength: 140,
} as const;
