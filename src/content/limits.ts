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
} as const;

export const ELEMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
