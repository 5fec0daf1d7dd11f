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
  // hostile-convert: what one conversion may cost (issue 16, finding 6), checked before and while building.
  /**
   * Nodes a converted body may hold. Every node takes at least 11 bytes of stored JSON (`{"text":""}`), so any
   * body within bodyBytes has fewer; more is BODY_TOO_LARGE before the rest is built.
   */
  bodyNodes: Math.floor((8 * 1024 * 1024) / 11),
  /** Inline nesting markdown-it follows (links in images in emphasis…): its inline cost grows with it. */
  inlineNesting: 20,
  /** A Slate body sent as JSON text: longer than this is BODY_TOO_LARGE before it is parsed (twice bodyBytes). */
  slateTextChars: 16 * 1024 * 1024,
  /** Bodies up to this many characters convert on the main thread; larger ones in the conversion worker. */
  inlineConvertChars: 128 * 1024,
  /** A tool's answer whose envelope JSON is longer than this is written and encoded on a conversion thread (over HTTP). */
  offThreadAnswerChars: 1024 * 1024,
  /** The conversion worker's limits: one conversion's time, and its heap (old generation). */
  convertTimeoutMs: 15_000,
  convertMemoryMb: 192,
  // app-back: sign-in links and web app sessions (issue 11)
  /** A sign-in link's life when `--expires-in` is not given (15 minutes). */
  signinLinkMs: 15 * 60_000,
  /** The longest life a sign-in link may be given (7 days). */
  signinLinkMaxMs: 7 * 86_400_000,
  /** A session unused this long ends (12 hours). */
  sessionIdleMs: 12 * 3_600_000,
  /** A session ends this long after sign-in, however used (7 days). */
  sessionAbsoluteMs: 7 * 86_400_000,
  /** Inbox items per page by default. */
  inboxPageSize: 20,
  // hostile-http: what one HTTP request may carry, checked before its JSON is parsed (issue 16, finding 3).
  /** A POST to /mcp: a bit body of bodyBytes may travel JSON-escaped (up to twice its size) inside a call. */
  mcpRequestBytes: 16 * 1024 * 1024,
  /** A JSON body under /api/v1: the largest REST input, a step's answers (about 1 MB), with room to spare. */
  restRequestBytes: 2 * 1024 * 1024,
  /**
   * The shape of a request's JSON. JSON.parse costs per value and per container (about 60 bytes of heap per
   * object), not per byte, so these bound its time, and containers are also bounded per byte so that a small
   * body of `{}` cannot cost more than a few times its size. A realistic body of 7.9 MB stored, sent as Slate
   * (bench/bodies.ts sizedBody), has 330,000 containers and 690,000 values (keys counted): these leave it room.
   */
  requestJsonContainers: 600_000,
  requestBytesPerJsonContainer: 12,
  requestJsonValues: 1_000_000,
  /** Members of one object: far above any object a tool takes (a trail_context has at most trailContextKeys). */
  requestJsonObjectMembers: 10_000,
  /**
   * Distinct keys in one request, and distinct short strings (JSON.parse internalizes both): a tool's input names
   * a few dozen keys (a trail_context at most trailContextKeys an object, a schema contextSchemaProperties).
   */
  requestJsonKeys: 1_000,
  requestJsonShortStrings: 100_000,
  /** Above the tools' own bound (MAX_INPUT_DEPTH under the JSON-RPC envelope), so a tool answers its own VALIDATION_ERROR. */
  requestJsonDepth: 300,
  // hostile-redos: patterns run by RE2 (linear), but their cost still grows with pattern × answer, so both are bounded.
  /** A text-area's validationPattern, in characters. */
  validationPatternLength: 1000,
  /** A text-area answer, in characters: the largest maxLength an author may set. */
  textAnswerLength: 5000,
  /** An element or item id, a key, or a node label in remove_node_ids, as a tool input (record ids are UUIDs). */
  nodeRefLength: 256,
  /** A next_cursor given back (the server's own are about a hundred characters). */
  cursorLength: 512,
  /** Input quoted in an error message, in characters; longer input is cut with an ellipsis (content/quote.ts). */
  quotedInput: 200,
  // hostile-search: search work bounded whatever a reference holds (issue 16, findings 4 and 9)
  /** Characters of a reference's text that search indexes; the reference itself is stored and returned whole. */
  searchableReferenceChars: 100_000,
  /**
   * Characters at the start of the searchable text that a search result's snippet is cut from. SQLite's
   * highlight() costs the hits times the length of what it reads: a 16,384-character window of one repeated
   * word took 15 ms a row (1.5 s for a page of 100), 4,096 takes under 1 ms.
   */
  snippetWindowChars: 4096,
  /** Searches of one account that run at once; more wait in line, and beyond the line are TOO_MANY_REQUESTS. */
  concurrentSearchesPerAccount: 2,
  queuedSearchesPerAccount: 8,
  /** The longest one database statement may run (PostgreSQL statement_timeout), in ms; beyond it QUERY_TIMEOUT. */
  statementTimeoutMs: 5000,
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
  // Pages, calls and queries (issue 15: each was a constant of the service or tool that used it).
  /** Rows of list_bits, list_flows and list_trails when `limit` is omitted (at most pageSize). */
  defaultPageSize: 50,
  /** Hits of search_references when `limit` is omitted (at most pageSize). */
  defaultSearchLimit: 20,
  /** Answers in one submit_step_data call. */
  answersPerCall: 200,
  /** A search_references query, in characters, and the terms of it that are kept (the rest are ignored). */
  searchQueryLength: 1000,
  searchTerms: 32,
  /** Words in a search hit's snippet: what FTS5 snippet() and ts_headline (MaxWords) were given before. */
  snippetWords: 32,
  /** The `query` of list_bits and list_flows, in characters. */
  listQueryLength: 256,
  /** A reason given to transfer_step or cancel_trail, in characters. */
  reasonLength: 1024,
  /** A reference abstract derived from its text: whole sentences up to this many characters. */
  derivedAbstractChars: 500,
  /**
   * Nesting of a tool's arguments (arrays and objects); deeper is VALIDATION_ERROR before the schema reads them.
   * Far above what a valid input needs (a Slate body at bodyDepth is about twice that many levels), and low
   * enough that no JSON encoder, validator or store on the way (PostgreSQL's jsonb, JSON.stringify) runs out of
   * stack on it.
   */
  inputDepth: 256,
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
