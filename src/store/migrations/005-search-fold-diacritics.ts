import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';

/**
 * Reference search folds diacritics on every engine, as SQLite's index did from migration 002: 'cafe'
 * finds 'Café'. PostgreSQL's search vector is rebuilt for the rows already stored (postgres-search.ts).
 */
export function searchFoldDiacritics(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dialect.search.migrateFoldDiacritics(db);
    },
  };
}
