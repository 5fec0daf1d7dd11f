/**
 * References search on SQLite: an FTS5 index whose content is read through a view, kept in sync by
 * triggers on library_references (so a batch insert, a service write or a manual fix all stay indexed).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../schema.js';
import type { ReferenceSearchHit, ReferenceSearchQuery, SearchDialect, SearchTerm } from './dialect.js';

/**
 * Title > abstract > body text, as bm25 column weights. The same ratio (1 : 0.4 : 0.1) as PostgreSQL's
 * ts_rank weights A, B and D in postgres-search.ts.
 */
const BM25_WEIGHTS = sql.raw('10.0, 4.0, 1.0');
const SNIPPET_TOKENS = 32;
const SNIPPET_CHUNK = 500;

/**
 * FTS5 needs an integer rowid that never changes, and library_references has a text key: a plain rowid
 * table's rowids may be renumbered by VACUUM. So each reference gets a stable INTEGER PRIMARY KEY in a
 * key table, the index reads its text through a view keyed by it (external content, no second copy of
 * the text), and the triggers keep all three in step.
 */
const DDL = [
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
 * An FTS5 query from tokenized terms: each term a double-quoted string (a phrase when it has several
 * words), juxtaposed, which FTS5 reads as AND. The words hold only letters, digits and marks, so no
 * FTS5 syntax (quotes, operators, column filters, NEAR) can come from the caller.
 */
export function fts5Match(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.words.join(' ')}"`).join(' ');
}

function filters(query: ReferenceSearchQuery): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [sql`r.account_id = ${query.accountId}`];
  if (query.visibleScopeId !== null) where.push(sql`(r.scope_id IS NULL OR r.scope_id = ${query.visibleScopeId})`);
  if (query.scopeId === null) where.push(sql`r.scope_id IS NULL`);
  else if (query.scopeId !== undefined) where.push(sql`r.scope_id = ${query.scopeId}`);
  if (!query.includeArchived) where.push(sql`r.is_active = 1`);
  if (query.categories && query.categories.length > 0) {
    where.push(sql`EXISTS (SELECT 1 FROM json_each(r.categories) c WHERE c.value IN (${sql.join(query.categories)}))`);
  }
  return where;
}

/**
 * Where the previous page ended, in today's ranking. bm25 weighs each term by how many rows of the whole
 * index hold it and each row's length against the average, so any write (even another account's) moves
 * every score: a cursor holding yesterday's absolute score repeated or skipped hits. So the anchor hit's
 * score is computed again here, in the same statement (one snapshot, one set of statistics) as the page,
 * and the page compares against it. The rowid bound lets FTS5 seek straight to the anchor; its bm25
 * statistics cost one more pass over each term's doclist, which the page query pays as well, so a cursor
 * page costs at most a constant factor of a first page. When the anchor no longer matches (deleted, or
 * edited away from the query) the cursor's own score is the best estimate left.
 */
function anchorScore(match: string, after: { score: number; id: string }): RawBuilder<number> {
  return sql<number>`coalesce((
    SELECT -bm25(library_references_fts, ${BM25_WEIGHTS}) FROM library_references_fts
    WHERE library_references_fts MATCH ${match}
      AND rowid = (SELECT search_rowid FROM library_reference_search_keys WHERE reference_id = ${after.id})
  ), ${after.score})`;
}

interface PageRow extends Omit<ReferenceSearchHit, 'snippet'> {
  search_rowid: number;
}

async function searchReferences(db: Kysely<DB>, query: ReferenceSearchQuery): Promise<ReferenceSearchHit[]> {
  const match = fts5Match(query.terms);
  // bm25 is lower-is-better and negative; its negation is the score callers see and page by.
  const matches = sql`
    SELECT r.id, r.title, r.abstract, r.categories, r.scope_id, r.is_active, k.search_rowid,
           -bm25(library_references_fts, ${BM25_WEIGHTS}) AS score
    FROM library_references_fts
    JOIN library_reference_search_keys k ON k.search_rowid = library_references_fts.rowid
    JOIN library_references r ON r.id = k.reference_id
    WHERE library_references_fts MATCH ${match} AND ${sql.join(filters(query), sql` AND `)}`;
  const page = query.after
    ? await sql<PageRow>`
        WITH anchor AS (SELECT ${anchorScore(match, query.after)} AS score)
        SELECT m.* FROM (${matches}) m, anchor
        WHERE m.score < anchor.score OR (m.score = anchor.score AND m.id > ${query.after.id})
        ORDER BY m.score DESC, m.id ASC
        LIMIT ${query.limit}`.execute(db)
    : await sql<PageRow>`SELECT * FROM (${matches}) ORDER BY score DESC, id ASC LIMIT ${query.limit}`.execute(db);
  if (page.rows.length === 0) return [];
  // Snippets only for the page: snippet() re-reads and re-tokenizes the text, too costly for every match.
  // In chunks: a page is at most 101 rows through the service, but the store's own callers may ask for
  // more, and SQLite caps the number of bound variables.
  const byRowid = new Map<number, string>();
  for (let start = 0; start < page.rows.length; start += SNIPPET_CHUNK) {
    const rowids = page.rows.slice(start, start + SNIPPET_CHUNK).map((r) => r.search_rowid);
    const snippets = await sql<{ rowid: number; snippet: string }>`
      SELECT rowid, snippet(library_references_fts, 2, '**', '**', '…', ${sql.lit(SNIPPET_TOKENS)}) AS snippet
      FROM library_references_fts
      WHERE library_references_fts MATCH ${match} AND rowid IN (${sql.join(rowids)})`.execute(db);
    for (const s of snippets.rows) byRowid.set(s.rowid, s.snippet);
  }
  return page.rows.map(({ search_rowid, ...hit }) => ({ ...hit, snippet: byRowid.get(search_rowid) ?? '' }));
}

export const sqliteSearch: SearchDialect = {
  async migrate(db) {
    for (const statement of DDL) await sql.raw(statement).execute(db);
  },
  // The unicode61 tokenizer of migration 002 already folds diacritics (remove_diacritics 2).
  async migrateFoldDiacritics() {},
  searchReferences,
};
