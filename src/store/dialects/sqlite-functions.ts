import type Database from 'better-sqlite3';

/**
 * The SQL functions every connection to the embedded store has: SQLite keeps functions in the connection,
 * so the store's own and the search readers' (sqlite-reads.ts) register them when they open the file.
 */
export function registerSqliteFunctions(database: Database.Database): void {
  // waymark_lower: see lowerText in dialect.ts. Deterministic, so SQLite may use it in indexes and
  // evaluate it once per value.
  database.function('waymark_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
}
