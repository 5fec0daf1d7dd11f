/**
 * Everything that differs between the two engines lives behind this interface, so that the
 * repositories and services never ask which engine they run on (STYLE.md, kysely's dialect layout).
 */
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from '../schema.js';

export type EngineName = 'sqlite' | 'postgres';

export interface StoreDialect {
  readonly engine: EngineName;
  /** Column type of JSON documents: jsonb on PostgreSQL, text on SQLite. */
  readonly jsonType: 'jsonb' | 'text';
  createKysely(): Kysely<DB>;
  /** A JSON value as a bind parameter. Always stringified: `pg` would turn a top-level array into a PostgreSQL array. */
  json(value: unknown): string;
  /** A JSON column as read back: pg parses jsonb itself, SQLite hands back text. */
  parseJson<T>(raw: unknown): T;
  /**
   * Lock the rows a select returns until the transaction ends. PostgreSQL: FOR UPDATE. SQLite: nothing
   * to add, because every write transaction is BEGIN IMMEDIATE and so already holds the one write lock.
   */
  forUpdate<O>(query: SelectQueryBuilder<DB, keyof DB, O>): SelectQueryBuilder<DB, keyof DB, O>;
  /** Whether an error is a transient conflict worth running the transaction again for. */
  isRetryable(error: unknown): boolean;
  /** Whether an error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
}
