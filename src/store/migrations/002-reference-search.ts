import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';

/**
 * Full-text search over the References Library (title > abstract > body text). The index differs per
 * engine, so the DDL lives in the dialect's search part (sqlite-search.ts, postgres-search.ts).
 */
export function referenceSearch(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dialect.search.migrate(db);
    },
  };
}
