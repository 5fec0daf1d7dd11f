/**
 * What a migration knows of the store it runs on: the engine's name, nothing else. Migrations are frozen: what
 * one does depends on this file and its own, never on live code (the dialects, content, limits), so that an
 * edit made later cannot change what an old migration did to a store it has not yet run on
 * (migrations.test.ts checks their imports).
 */
export interface MigrationTarget {
  readonly engine: 'sqlite' | 'postgres';
}

/** Column type of JSON documents, as the migrations create them: jsonb on PostgreSQL, text on SQLite. */
export function jsonColumnType(target: MigrationTarget): 'jsonb' | 'text' {
  return target.engine === 'postgres' ? 'jsonb' : 'text';
}
