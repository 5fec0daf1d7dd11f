import { sql, type Kysely, type Migration } from 'kysely';
import type { MigrationTarget } from './engine.js';

const BATCH = 200;

/**
 * Migration 007: the index's body is two columns, the snippet window (snippet_text, a prefix of search_text)
 * and the rest of search_text, so that highlight() re-reads the window only (its cost grows with its hits
 * times the length of what it reads) while the index holds each word once. A quoted phrase that straddles
 * the window's end no longer matches there; the window ends between words. FTS5 tables cannot change their
 * columns, so the index, its view and its triggers are made again; the key table stays.
 */
const SQLITE_WINDOW_DROP = [
  'DROP TRIGGER library_references_fts_insert',
  'DROP TRIGGER library_references_fts_update',
  'DROP TRIGGER library_references_fts_delete',
  'DROP TABLE library_references_fts',
  'DROP VIEW library_reference_search_content',
];
/** SQLite counts characters on both sides, so the rest starts right after the window whatever the text. */
const REST = (row: string) => `substr(${row}.search_text, length(${row}.snippet_text) + 1)`;
const SQLITE_WINDOW_CREATE = [
  `CREATE VIEW library_reference_search_content AS
     SELECT k.search_rowid, r.title, r.abstract, r.snippet_text AS search_window, ${REST('r')} AS search_rest
     FROM library_reference_search_keys k JOIN library_references r ON r.id = k.reference_id`,
  `CREATE VIRTUAL TABLE library_references_fts USING fts5(
     title, abstract, search_window, search_rest,
     content='library_reference_search_content', content_rowid='search_rowid',
     tokenize='porter unicode61 remove_diacritics 2'
   )`,
  `CREATE TRIGGER library_references_fts_insert AFTER INSERT ON library_references BEGIN
     INSERT INTO library_reference_search_keys (reference_id) VALUES (new.id);
     INSERT INTO library_references_fts (rowid, title, abstract, search_window, search_rest)
       SELECT search_rowid, new.title, new.abstract, new.snippet_text, ${REST('new')} FROM library_reference_search_keys WHERE reference_id = new.id;
   END`,
  `CREATE TRIGGER library_references_fts_update AFTER UPDATE OF title, abstract, search_text, snippet_text ON library_references BEGIN
     INSERT INTO library_references_fts (library_references_fts, rowid, title, abstract, search_window, search_rest)
       SELECT 'delete', search_rowid, old.title, old.abstract, old.snippet_text, ${REST('old')} FROM library_reference_search_keys WHERE reference_id = old.id;
     INSERT INTO library_references_fts (rowid, title, abstract, search_window, search_rest)
       SELECT search_rowid, new.title, new.abstract, new.snippet_text, ${REST('new')} FROM library_reference_search_keys WHERE reference_id = new.id;
   END`,
  `CREATE TRIGGER library_references_fts_delete BEFORE DELETE ON library_references BEGIN
     INSERT INTO library_references_fts (library_references_fts, rowid, title, abstract, search_window, search_rest)
       SELECT 'delete', search_rowid, old.title, old.abstract, old.snippet_text, ${REST('old')} FROM library_reference_search_keys WHERE reference_id = old.id;
     DELETE FROM library_reference_search_keys WHERE reference_id = old.id;
   END`,
  `INSERT INTO library_references_fts (library_references_fts) VALUES ('rebuild')`,
];

/**
 * The bounds of this migration: LIMITS.searchableReferenceChars and LIMITS.snippetWindowChars when it was
 * written. It keeps its own copy of them, and of the cut below (content/search-text.ts then), so that a later
 * change there does not change what it does to the references stored before it.
 */
const SEARCHABLE_REFERENCE_CHARS = 100_000;
const SNIPPET_WINDOW_CHARS = 4096;

/**
 * Search work bounded whatever a reference holds (issue 16, finding 4): the indexed text is cut to
 * SEARCHABLE_REFERENCE_CHARS and a new column, snippet_text, keeps the prefix that snippets are cut
 * from; both are computed for the references stored before, as the services computed them then (searchTexts
 * below). SQLite's index is rebuilt to read the snippet window as a column of its own (sqlite-search.ts).
 */
export function searchWindow(dialect: MigrationTarget): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('library_references').addColumn('snippet_text', 'text', (c) => c.notNull().defaultTo('')).execute();
      // PostgreSQL's generated search_vector follows the bounded search_text by itself.
      if (dialect.engine === 'postgres') return boundStoredTexts(db);
      // Without its triggers while the texts are bounded: the rebuild below indexes every row once.
      for (const statement of SQLITE_WINDOW_DROP) await sql.raw(statement).execute(db);
      await boundStoredTexts(db);
      for (const statement of SQLITE_WINDOW_CREATE) await sql.raw(statement).execute(db);
    },
  };
}

/**
 * Every stored reference's search_text bounded and its snippet_text set, a batch of rows per statement. A
 * VALUES list's columns are column1, column2… on both engines (SQLite takes no column aliases on it).
 */
async function boundStoredTexts(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (
      await sql<{ id: string; search_text: string }>`
        SELECT id, search_text FROM library_references WHERE id > ${after} ORDER BY id LIMIT ${BATCH}`.execute(db)
    ).rows;
    if (rows.length === 0) return;
    const values = rows.map((row) => {
      const texts = searchTexts(row.search_text);
      return sql`(${row.id}, ${texts.search_text}, ${texts.snippet_text})`;
    });
    await sql`
      UPDATE library_references SET search_text = v.search_text, snippet_text = v.snippet_text
      FROM (SELECT column1 AS id, column2 AS search_text, column3 AS snippet_text FROM (VALUES ${sql.join(values)}) AS vals) AS v
      WHERE library_references.id = v.id`.execute(db);
    after = (rows[rows.length - 1] as { id: string }).id;
  }
}

/**
 * `text` cut to at most `max` characters at a word boundary: a word the cut would split is left out whole, so
 * that search never indexes half a word (a query for it would then find a reference that does not hold it).
 * A text without whitespace before `max` is cut at `max`, never inside a surrogate pair.
 */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  // The first character left out, then back to the nearest whitespace before it.
  let cut = max;
  while (cut > 0 && !/\s/.test(text.charAt(cut))) cut--;
  if (cut === 0) cut = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, cut);
}

/**
 * What search keeps of a reference's text (issue 16, finding 4): at most SEARCHABLE_REFERENCE_CHARS are
 * indexed, so that no reference can overflow PostgreSQL's tsvector (1 MB) or make indexing and ranking cost
 * more than that bound; the snippet is cut from the first SNIPPET_WINDOW_CHARS of it, a prefix kept in
 * its own column, so that a snippet's cost does not grow with the reference. The reference's content is
 * stored and returned whole.
 */
function searchTexts(text: string): { search_text: string; snippet_text: string } {
  // U+0001 and U+0002 are how the engines mark matched words for the snippet (store/dialects/snippet.ts).
  const searchText = cutAtWord(text.replaceAll('\u0001', ' ').replaceAll('\u0002', ' '), SEARCHABLE_REFERENCE_CHARS);
  return { search_text: searchText, snippet_text: cutAtWord(searchText, SNIPPET_WINDOW_CHARS) };
}
