/**
 * References search on SQLite: an FTS5 index whose content is read through a view, kept in sync by
 * triggers on library_references (so a batch insert, a service write or a manual fix all stay indexed).
 * Migrations 002 and 007 made them: the index's columns are title, abstract, search_window (the snippet
 * window) and search_rest, its rowids those of the key table library_reference_search_keys.
 */
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { inScope, visibleTo } from '../visibility.js';
import type { DB } from '../schema.js';
import type { ReferenceSearchHit, ReferenceSearchQuery, SearchDialect, SearchTerm } from './dialect.js';
import type { SqliteReads } from './sqlite-reads.js';
import { MARK_END, MARK_START, snippetFromMarked } from './snippet.js';

/**
 * Title > abstract > body text: a hit's score is the sum of these for each part that holds a matched word.
 * The same ratio (1 : 0.4 : 0.1) as PostgreSQL's ts_rank weights A, B and D (migrations 002 and 005).
 */
const TITLE_WEIGHT = 10;
const ABSTRACT_WEIGHT = 4;
const BODY_WEIGHT = 1;
const SNIPPET_CHUNK = 500;

/**
 * An FTS5 query from tokenized terms: each term a double-quoted string (a phrase when it has several
 * words), juxtaposed, which FTS5 reads as AND. The words hold only letters, digits and marks, so no
 * FTS5 syntax (quotes, operators, column filters, NEAR) can come from the caller.
 */
export function fts5Match(terms: SearchTerm[]): string {
  return terms.map((t) => `"${t.words.join(' ')}"`).join(' ');
}

function filters(query: ReferenceSearchQuery): Expression<unknown>[] {
  const where: Expression<unknown>[] = [visibleTo(query.seen, 'r'), inScope(query.scopeId, 'r')];
  if (!query.includeArchived) where.push(sql`r.is_active = 1`);
  if (query.categories && query.categories.length > 0) {
    where.push(sql`EXISTS (SELECT 1 FROM json_each(r.categories) c WHERE c.value IN (${sql.join(query.categories)}))`);
  }
  return where;
}

/**
 * Whether a hit holds a matched word in the columns given weight 1 (issue 16, finding 9). bm25 weighs each
 * term by how many rows of the whole index hold it and each row's length against the average of all rows,
 * every account's: a reader's scores moved when another account wrote a word, which told it that others use
 * the word, and roughly how often. Its sign does not: bm25 is negative when a weighted column holds a hit
 * (its IDF is never below 1e-6) and zero when none does, so the score built from it reads the row alone.
 */
function holds(weights: string): RawBuilder<number> {
  return sql<number>`(bm25(library_references_fts, ${sql.raw(weights)}) < 0)`;
}

const SCORE = sql<number>`(${sql.lit(TITLE_WEIGHT)} * ${holds('1, 0, 0, 0')} + ${sql.lit(ABSTRACT_WEIGHT)} * ${holds('0, 1, 0, 0')} + ${sql.lit(BODY_WEIGHT)} * ${holds('0, 0, 1, 1')})`;

interface PageRow extends Omit<ReferenceSearchHit, 'snippet'> {
  search_rowid: number;
}

async function searchReferences(reads: SqliteReads, db: Kysely<DB>, query: ReferenceSearchQuery): Promise<ReferenceSearchHit[]> {
  const match = fts5Match(query.terms);
  // The score reads the row alone, so the cursor's score still marks where the previous page ended
  // whatever was written since, and no row is looked up by the cursor's id.
  const after = query.after ? sql`WHERE score < ${query.after.score} OR (score = ${query.after.score} AND id > ${query.after.id})` : sql``;
  const rows = await reads.all(sql<PageRow>`
    SELECT * FROM (
      SELECT r.id, r.title, r.abstract, r.categories, r.scope_id, r.is_active, k.search_rowid, ${SCORE} AS score
      FROM library_references_fts
      JOIN library_reference_search_keys k ON k.search_rowid = library_references_fts.rowid
      JOIN library_references r ON r.id = k.reference_id
      WHERE library_references_fts MATCH ${match} AND ${sql.join(filters(query), sql` AND `)}
    ) ${after}
    ORDER BY score DESC, id ASC
    LIMIT ${query.limit}`, db);
  if (rows.length === 0) return [];
  // Snippets only for the page, from the window alone (migration 007): highlight() marks every hit there and
  // snippetFromMarked picks the fragment in one pass; FTS5's own snippet() costs the square of the hits.
  // In chunks: a page is at most 101 rows through the service, but the store's own callers may ask for
  // more, and SQLite caps the number of bound variables.
  const byRowid = new Map<number, string>();
  for (let start = 0; start < rows.length; start += SNIPPET_CHUNK) {
    const rowids = rows.slice(start, start + SNIPPET_CHUNK).map((r) => r.search_rowid);
    const marked = await reads.all(sql<{ rowid: number; marked: string | null }>`
      SELECT rowid, highlight(library_references_fts, 2, ${MARK_START}, ${MARK_END}) AS marked
      FROM library_references_fts
      WHERE library_references_fts MATCH ${match} AND rowid IN (${sql.join(rowids)})`, db);
    for (const s of marked) byRowid.set(s.rowid, snippetFromMarked(s.marked ?? ''));
  }
  return rows.map(({ search_rowid, ...hit }) => ({ ...hit, snippet: byRowid.get(search_rowid) ?? '' }));
}

/** The search of a store whose statements run through `reads` (inline, or on reader threads: sqlite-reads.ts). */
export const sqliteSearch = (reads: SqliteReads): SearchDialect => ({
  searchReferences: (db, query) => searchReferences(reads, db, query),
});
