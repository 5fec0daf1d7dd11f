import pg from 'pg';
import { Kysely, PostgresDialect, sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../schema.js';
import type { StoreDialect } from './dialect.js';
import { postgresSearch } from './postgres-search.js';

/** lower() already folds every letter here (under the database's UTF-8 ctype); inlined, so it costs nothing. */
const LOWER_TEXT_DDL = `CREATE FUNCTION waymark_lower(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT pg_catalog.lower($1) $$`;

/** serialization_failure, deadlock_detected: PostgreSQL asks the client to run the transaction again. */
const RETRYABLE = new Set(['40001', '40P01']);

export function postgresDialect(url: string): StoreDialect {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  return {
    engine: 'postgres',
    jsonType: 'jsonb',
    createKysely: () => new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
    json: (value) => JSON.stringify(value),
    // pg parses jsonb itself; a string here is one of our own encoded values (dialect.json) not yet stored.
    // Stored documents are always objects or arrays, never bare strings.
    parseJson: <T>(raw: unknown) => (typeof raw === 'string' ? (JSON.parse(raw) as T) : (raw as T)),
    forUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forUpdate(),
    forNoKeyUpdate: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forNoKeyUpdate(),
    forKeyShare: <O>(query: SelectQueryBuilder<DB, keyof DB, O>) => query.forKeyShare(),
    isRetryable: (error) => RETRYABLE.has((error as { code?: string } | null)?.code ?? ''),
    isUniqueViolation: (error) => (error as { code?: string } | null)?.code === '23505',
    migrateLowerText: async (db) => {
      await sql.raw(LOWER_TEXT_DDL).execute(db);
    },
    search: postgresSearch,
    // strict: lax mode's `.**` also unwraps arrays, and would find each node more than once.
    connectionNodesOf: (bitId) => sql<{ node: unknown }>`SELECT jsonb_path_query(body, 'strict $.**?(@.type == "bit-connection")') AS node FROM bits WHERE id = ${bitId}`,
  };
}
