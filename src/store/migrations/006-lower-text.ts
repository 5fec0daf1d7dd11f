import type { Kysely, Migration } from 'kysely';
import type { StoreDialect } from '../dialects/dialect.js';

/**
 * waymark_lower(), the Unicode-aware lower case the list tools' `query` matches with on both engines
 * (lowerText in dialects/dialect.ts); SQLite's lower() folds ASCII only.
 */
export function lowerTextFunction(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dialect.migrateLowerText(db);
    },
  };
}
