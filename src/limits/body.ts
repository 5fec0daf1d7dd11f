/**
 * What one body may hold, as the converter reads and writes it: the interface document's limits (section
 * Limits) on a body and its elements, and our bounds on what one conversion may cost.
 */
export const BODY_LIMITS = {
  elementKeyLength: 32,
  entriesAndItemsPerCall: 200,
  outgoingConnections: 20,
  /** bit_body after conversion, in bytes of its stored JSON (8 MB). */
  bodyBytes: 8 * 1024 * 1024,
  /** Nesting of blocks and inlines accepted before parsing (our bound, not the document's). */
  bodyDepth: 64,
  searchableFieldData: 5000,
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
  // hostile-redos: patterns run by RE2 (linear), but their cost still grows with pattern × answer, so both are bounded.
  /** A text-area's validationPattern, in characters. */
  validationPatternLength: 1000,
  /** A text-area answer, in characters: the largest maxLength an author may set. */
  textAnswerLength: 5000,
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
