/** hostile-search: search work bounded whatever a reference holds (issue 16, findings 4 and 9). */
export const SEARCH_LIMITS = {
  /** Characters of a reference's text that search indexes; the reference itself is stored and returned whole. */
  searchableReferenceChars: 100_000,
  /**
   * Characters at the start of the searchable text that a search result's snippet is cut from. SQLite's
   * highlight() costs the hits times the length of what it reads: a 16,384-character window of one repeated
   * word took 15 ms a row (1.5 s for a page of 100), 4,096 takes under 1 ms.
   */
  snippetWindowChars: 4096,
  /**
   * Searches of one account that run at once, per server process (they share out its connection pool: quotas.ts);
   * more wait in line, and beyond the line are TOO_MANY_REQUESTS.
   */
  concurrentSearchesPerAccount: 2,
  queuedSearchesPerAccount: 8,
  /** Hits of search_references when `limit` is omitted (at most pageSize). */
  defaultSearchLimit: 20,
  /** A search_references query, in characters, and the terms of it that are kept (the rest are ignored). */
  searchQueryLength: 1000,
  searchTerms: 32,
  /** Words in a search hit's snippet: what FTS5 snippet() and ts_headline (MaxWords) were given before. */
  snippetWords: 32,
} as const;
