import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

/**
 * FTS5 needs an integer rowid that never changes, and library_references has a text key: a plain rowid
 * table's rowids may be renumbered by VACUUM. So each reference gets a stable INTEGER PRIMARY KEY in a
 * key table, the index reads its text through a view keyed by it (external content, no second copy of
 * the text), and the triggers keep all three in step.
 */
const SQLITE_DDL = [
  `CREATE TABLE library_reference_search_keys (
     search_rowid INTEGER PRIMARY KEY,
     reference_id TEXT NOT NULL UNIQUE REFERENCES library_references(id)
   )`,
  `CREATE VIEW library_reference_search_content AS
     SELECT k.search_rowid, r.title, r.abstract, r.search_text
     FROM library_reference_search_keys k JOIN library_references r ON r.id = k.reference_id`,
  // porter over unicode61: English stemming as PostgreSQL's 'english' configuration does; case and
  // diacritics folded.
  `CREATE VIRTUAL TABLE library_references_fts USING fts5(
     title, abstract, search_text,
     content='library_reference_search_content', content_rowid='search_rowid',
     tokenize='porter unicode61 remove_diacritics 2'
   )`,
  `CREATE TRIGGER library_references_fts_insert AFTER INSERT ON library_references BEGIN
     INSERT INTO library_reference_search_keys (reference_id) VALUES (new.id);
     INSERT INTO library_references_fts (rowid, title, abstract, search_text)
       SELECT search_rowid, new.title, new.abstract, new.search_text FROM library_reference_search_keys WHERE reference_id = new.id;
   END`,
  // External-content FTS5 deletes by re-tokenizing the old values, so the trigger hands them over exactly.
  `CREATE TRIGGER library_references_fts_update AFTER UPDATE OF title, abstract, search_text ON library_references BEGIN
     INSERT INTO library_references_fts (library_references_fts, rowid, title, abstract, search_text)
       SELECT 'delete', search_rowid, old.title, old.abstract, old.search_text FROM library_reference_search_keys WHERE reference_id = old.id;
     INSERT INTO library_references_fts (rowid, title, abstract, search_text)
       SELECT search_rowid, new.title, new.abstract, new.search_text FROM library_reference_search_keys WHERE reference_id = new.id;
   END`,
  `CREATE TRIGGER library_references_fts_delete BEFORE DELETE ON library_references BEGIN
     INSERT INTO library_references_fts (library_references_fts, rowid, title, abstract, search_text)
       SELECT 'delete', search_rowid, old.title, old.abstract, old.search_text FROM library_reference_search_keys WHERE reference_id = old.id;
     DELETE FROM library_reference_search_keys WHERE reference_id = old.id;
   END`,
  // References written before this migration.
  `INSERT INTO library_reference_search_keys (reference_id) SELECT id FROM library_references`,
  `INSERT INTO library_references_fts (library_references_fts) VALUES ('rebuild')`,
];

/**
 * 'english': stemming and stop words, as SQLite's porter tokenizer stems (references/query.ts
 * drops the same stop words from queries on both engines). Title A, abstract B, body text D; ts_rank's
 * default weights give them 1.0, 0.4 and 0.1.
 */
const POSTGRES_DDL = [
  `ALTER TABLE library_references ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
     setweight(to_tsvector('english', title), 'A') ||
     setweight(to_tsvector('english', coalesce(abstract, '')), 'B') ||
     setweight(to_tsvector('english', search_text), 'D')
   ) STORED`,
  // fastupdate off: with the default pending list, every search also scans up to gin_pending_list_limit
  // (4 MB) of not-yet-merged entries until a vacuum merges them, some 20 ms per query after a batch of
  // writes. A library is read far more than written, so each write pays to keep searches steady.
  `CREATE INDEX library_references_search ON library_references USING gin (search_vector) WITH (fastupdate = off)`,
];

/**
 * Full-text search over the References Library (title > abstract > body text). The index differs per
 * engine (SQLite: an FTS5 table kept in sync by triggers; PostgreSQL: a generated tsvector column with a GIN
 * index); the dialects' search parts (sqlite-search.ts, postgres-search.ts) query what this made.
 */
export function referenceSearch(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const statement of dialect.engine === 'postgres' ? POSTGRES_DDL : SQLITE_DDL) await sql.raw(statement).execute(db);
    },
  };
}
