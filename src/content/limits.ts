/**
 * Every limit of the interface document (section Limits), in one place. Tool schemas, services,
 * the converter and describe_platform all read them from here.
 */
export const LIMITS = {
  title: 256,
  bitAbstract: 2048,
  bitDescription: 1024,
  flowDescription: 1024,
  referenceAbstract: 2048,
  categories: 50,
  categoryLength: 128,
  displayLabel: 128,
  elementKeyLength: 32,
  entriesAndItemsPerCall: 200,
  outgoingConnections: 20,
  /** bit_body after conversion, in bytes of its stored JSON (8 MB). */
  bodyBytes: 8 * 1024 * 1024,
  /** Nesting of blocks and inlines accepted before parsing (our bound, not the document's). */
  bodyDepth: 64,
  searchableFieldData: 5000,
  pageSize: 100,
  // hostile-trails: trails and trail_context_schema bounded (issue 16, findings 1, 5, 7); our bounds, not the document's.
  /** trail_context_schema as JSON text (64 KB), its properties, and the choices of one enum/oneOf/anyOf. */
  contextSchemaBytes: 64 * 1024,
  contextSchemaProperties: 100,
  contextSchemaChoices: 500,
  /** trail_context as JSON text (64 KB), its keys, the items of one array in it, and its nesting. */
  trailContextBytes: 64 * 1024,
  trailContextKeys: 200,
  trailContextArrayItems: 500,
  trailContextDepth: 8,
  /** Issues listed in one error (details.issue_count holds the full count) and the length of its message. */
  issuesPerError: 50,
  errorMessageLength: 4000,
  /** One answer's value, one submit_step_data call, one step's answers, one trail's answers (JSON bytes). */
  answerValueBytes: 256 * 1024,
  answersPerCallBytes: 1024 * 1024,
  answersPerStepBytes: 4 * 1024 * 1024,
  answersPerTrailBytes: 8 * 1024 * 1024,
  /** Steps one trail may enter: a cycle cannot grow a trail forever. */
  stepsPerTrail: 1000,
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
