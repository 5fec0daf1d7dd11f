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
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
