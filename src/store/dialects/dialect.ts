/**
 * Everything that differs between the two engines lives behind this interface, so that the
 * repositories and services never ask which engine they run on (STYLE.md, kysely's dialect layout).
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../schema.js';
import { WaymarkError } from '../../errors.js';
import type { Visibility } from '../visibility.js';

export type EngineName = 'sqlite' | 'postgres';

/** A statement stopped past the engine's time limit (PostgreSQL's statement_timeout, a SQLite reader's), as the code an agent can act on. */
export function queryTimeout(timeoutMs: number): WaymarkError {
  return new WaymarkError('QUERY_TIMEOUT', `The request ran longer than the ${timeoutMs} ms the server allows a database statement and was stopped; narrow it (more words, a phrase, filters) or retry.`, {
    timeout_ms: timeoutMs,
  });
}

export interface StoreDialect {
  readonly engine: EngineName;
  /** Column type of JSON documents: jsonb on PostgreSQL, text on SQLite. */
  readonly jsonType: 'jsonb' | 'text';
  createKysely(): Kysely<DB>;
  /**
   * Runs the migrations' work on a Kysely of their own where the engine bounds query connections (PostgreSQL's
   * statement_timeout, postgres.ts); `queries` (the store's own) where it does not.
   */
  withMigrationKysely<T>(queries: Kysely<DB>, work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /** A JSON value as a bind parameter. Always stringified: `pg` would turn a top-level array into a PostgreSQL array. */
  json(value: unknown): string;
  /**
   * A JSON document written already, as text or as its UTF-8 bytes (a body from the conversion thread), as
   * the value to store. SQLite stores the bytes as text (CAST(? AS TEXT)): a text bind parameter is copied
   * to UTF-8 once more before SQLite copies it again (an 8 MB body's write cost 29 MB where its bytes cost
   * 19: bench/memory.ts). PostgreSQL takes the text.
   */
  writtenJson(json: string | Uint8Array): unknown;
  /** A JSON column as read back: pg parses jsonb itself, SQLite hands back text. */
  parseJson<T>(raw: unknown): T;
  /**
   * Lock the rows a select returns until the transaction ends. PostgreSQL: FOR UPDATE. SQLite: nothing
   * to add, because every write transaction is BEGIN IMMEDIATE and so already holds the one write lock.
   */
  forUpdate<O>(query: SelectQueryBuilder<DB, keyof DB, O>): SelectQueryBuilder<DB, keyof DB, O>;
  /**
   * Lock the rows to change their non-key columns. PostgreSQL: FOR NO KEY UPDATE, which excludes other
   * writers as FOR UPDATE does but, unlike it, lets other transactions insert rows whose foreign keys point
   * at the locked row (their check takes FOR KEY SHARE). Two bits that connect to each other at once then
   * do not deadlock. SQLite: nothing, as for forUpdate.
   */
  forNoKeyUpdate<O>(query: SelectQueryBuilder<DB, keyof DB, O>): SelectQueryBuilder<DB, keyof DB, O>;
  /**
   * Lock the rows against key changes and FOR UPDATE only: PostgreSQL FOR KEY SHARE, what a foreign-key check
   * takes. Readers that are about to insert rows pointing at these use it, so that a transaction holding one
   * FOR UPDATE (archive_bit) is waited for and its outcome read. SQLite: nothing.
   */
  forKeyShare<O>(query: SelectQueryBuilder<DB, keyof DB, O>): SelectQueryBuilder<DB, keyof DB, O>;
  /**
   * Holds an exclusive lock on `key` until the transaction ends, so that transactions that take it append one after
   * another (an account's event chain, events.repo.ts). PostgreSQL: a transaction-level advisory lock on the key's
   * 64-bit hash (two keys sharing a hash only wait for each other). SQLite: nothing, as for forUpdate.
   */
  lockKey(tx: Kysely<DB>, key: string): Promise<void>;
  /** Whether an error is a transient conflict worth running the transaction again for. */
  isRetryable(error: unknown): boolean;
  /** Whether an error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean;
  /** Full-text search of the References Library (see SearchDialect below). */
  readonly search: SearchDialect;
  /**
   * The `bit-connection` nodes of one bit's body, one row each, found by the engine (SQLite: json_tree;
   * PostgreSQL: a jsonpath), so that a reader that needs only a body's connections (get_flow's graph)
   * never loads the body: 150 bodies of 2 MB read whole blocked 4.5 s (issue 16, finding 7).
   */
  connectionNodesOf(bitId: string): RawBuilder<{ node: unknown }>;
  /** Lets go of what the engine holds beside Kysely's connections (the embedded store's search readers). */
  close(): Promise<void>;
}

/**
 * Text in lower case for case-insensitive matching (the list tools' `query`), the same on both engines:
 * SQLite's own lower() folds ASCII letters only ('Ä' stayed 'Ä'), PostgreSQL's folds every letter. So
 * each engine provides waymark_lower(): sqlite.ts registers one on the connection (JavaScript's
 * toLowerCase, the same as the pattern the text is matched against), migration 006 creates one over
 * lower() on PostgreSQL. One name, so that the repositories need not know the engine.
 */
export function lowerText(value: Expression<string | null>): RawBuilder<string> {
  return sql<string>`waymark_lower(${value})`;
}

/** One term of a search, tokenized by references/query.ts. */
export interface SearchTerm {
  /** Lowercased words of letters and digits; more than one word is a phrase (the words adjacent, in order). */
  words: string[];
}

export interface ReferenceSearchQuery {
  /** Who searches: only references it may see are hits (visibility.ts). */
  seen: Visibility;
  /** Every term must match (AND). Never empty. */
  terms: SearchTerm[];
  /** undefined: no scope filter; null: account-level references only; an id: that scope only. */
  scopeId?: string | null;
  /** Any of these categories (exact match). */
  categories?: string[];
  includeArchived: boolean;
  /**
   * Keyset cursor: hits strictly after the last hit of the previous page (score descending, then id
   * ascending). A score depends on its own row only (on both engines: no statistics of the rest of the
   * index), so writes between pages neither repeat nor skip hits, and no row is looked up by the cursor's id.
   */
  after?: { score: number; id: string };
  limit: number;
}

export interface ReferenceSearchHit {
  id: string;
  title: string;
  abstract: string | null;
  categories: unknown;
  scope_id: string | null;
  is_active: number;
  /**
   * Higher is better; comparable only within one engine and one query. A function of the hit's own row and
   * the query alone: no other row, and so no other account's writes, moves it (issue 16, finding 9).
   */
  score: number;
  /** An excerpt of the snippet window (migration 007) with the matched words marked `**…**` (snippet.ts). */
  snippet: string;
}

/**
 * Full-text search over the References Library (migration 002). The engines index differently (SQLite:
 * an FTS5 table kept in sync by triggers; PostgreSQL: a generated tsvector column with a GIN index), so
 * each dialect owns its one search query over what migrations 002, 005 and 007 made; the query terms arrive
 * already tokenized (references/query.ts), so no user text ever reaches an engine's query syntax.
 */
export interface SearchDialect {
  searchReferences(db: Kysely<DB>, query: ReferenceSearchQuery): Promise<ReferenceSearchHit[]>;
}
