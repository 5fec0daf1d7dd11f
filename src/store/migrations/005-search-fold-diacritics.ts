import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * Migration 005: fold diacritics as SQLite's FTS5 does (unicode61 remove_diacritics 2), so that 'cafe'
 * finds 'Café' on both engines. PostgreSQL's own way (the unaccent extension) needs a privilege to
 * install and its unaccent() is not immutable, so it cannot feed a generated column. Folding in the
 * application would need a second, folded copy of the text written by the services, and the generated
 * column would no longer be in step with every writer. So the fold is an immutable SQL function of
 * built-ins: decompose (NFD), drop the combining marks (U+0300–U+036F) that follow a Latin letter,
 * recompose (NFC). Latin only, as FTS5 folds Latin only: 'й' and 'ά' stay as they are on both engines.
 * The same function folds the stored vector and the query, so the two cannot drift apart.
 */
const POSTGRES_FOLD_DDL = [
  String.raw`CREATE FUNCTION waymark_fold_diacritics(text) RETURNS text
     LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
     AS $$ SELECT pg_catalog.normalize(pg_catalog.regexp_replace(pg_catalog.normalize($1, 'NFD'), '([A-Za-z])[\u0300-\u036f]+', '\1', 'g'), 'NFC') $$`,
  // Dropping the column drops its index; adding it back computes the vector of every existing row.
  `ALTER TABLE library_references DROP COLUMN search_vector`,
  `ALTER TABLE library_references ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
     setweight(to_tsvector('english', waymark_fold_diacritics(title)), 'A') ||
     setweight(to_tsvector('english', waymark_fold_diacritics(coalesce(abstract, ''))), 'B') ||
     setweight(to_tsvector('english', waymark_fold_diacritics(search_text)), 'D')
   ) STORED`,
  `CREATE INDEX library_references_search ON library_references USING gin (search_vector) WITH (fastupdate = off)`,
];

/**
 * Reference search folds diacritics on every engine, as SQLite's index did from migration 002: 'cafe'
 * finds 'Café'. PostgreSQL's search vector is rebuilt for the rows already stored; the unicode61 tokenizer
 * of SQLite's migration 002 already folds them (remove_diacritics 2), so there is nothing to do there.
 */
export function searchFoldDiacritics(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect.engine !== 'postgres') return;
      for (const statement of POSTGRES_FOLD_DDL) await sql.raw(statement).execute(db);
    },
  };
}
