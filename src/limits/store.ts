/** What the store lets one database statement cost. */
export const STORE_LIMITS = {
  /** The longest one database statement may run (PostgreSQL statement_timeout), in ms; beyond it QUERY_TIMEOUT. */
  statementTimeoutMs: 5000,
} as const;
