import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/** lower() already folds every letter here (under the database's UTF-8 ctype); inlined, so it costs nothing. */
const POSTGRES_LOWER_TEXT_DDL = `CREATE FUNCTION waymark_lower(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT pg_catalog.lower($1) $$`;

/**
 * waymark_lower(), the Unicode-aware lower case the list tools' `query` matches with on both engines
 * (lowerText in dialects/dialect.ts); SQLite's lower() folds ASCII only. PostgreSQL keeps the function in the
 * database; SQLite keeps functions in the connection, so there it is registered whenever the file is opened
 * (sqlite-functions.ts), and this does nothing.
 */
export function lowerTextFunction(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect.engine === 'postgres') await sql.raw(POSTGRES_LOWER_TEXT_DDL).execute(db);
    },
  };
}
