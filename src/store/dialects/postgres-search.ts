/**
 * References search on PostgreSQL: a stored generated tsvector column (always in step with the row,
 * whoever writes it) and a GIN index over it, made by migrations 002 and 005: title weighted A, abstract B,
 * body text D ('english' configuration), each folded by waymark_fold_diacritics(), which folds the query too.
 */
import { sql, type Expression, type Kysely, type RawBuilder } from 'kysely';
import { inScope, visibleTo } from '../visibility.js';
import type { DB } from '../schema.js';
import type { ReferenceSearchHit, ReferenceSearchQuery, SearchDialect, SearchTerm } from './dialect.js';
import { MARK_END, MARK_START, snippetFromMarked } from './snippet.js';

/**
 * ts_headline marks every matched word of the snippet window and snippetFromMarked (snippet.ts) picks the
 * fragment, as on SQLite: ts_headline's own fragment search over a whole reference took 16.5 s (issue 16).
 */
const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, HighlightAll=true`;

/**
 * Each term through phraseto_tsquery (one word or a phrase, words in order), ANDed. The text is a bind
 * parameter and phraseto_tsquery reads no operators, so no tsquery syntax can come from the caller.
 */
export function tsquery(terms: SearchTerm[]): RawBuilder<unknown> {
  return sql.join(
    terms.map((t) => sql`phraseto_tsquery('english', waymark_fold_diacritics(${t.words.join(' ')}))`),
    sql` && `,
  );
}

function filters(query: ReferenceSearchQuery): Expression<unknown>[] {
  const where: Expression<unknown>[] = [visibleTo(query.seen, 'r'), inScope(query.scopeId, 'r')];
  if (!query.includeArchived) where.push(sql`r.is_active = 1`);
  if (query.categories && query.categories.length > 0) where.push(sql`r.categories ?| ${query.categories}::text[]`);
  return where;
}

/**
 * The snippet shows the original text, whose accented words the folded query does not name: ts_headline
 * would find 'cafe' but not mark 'Café'. So the headline query also names the words of the hit whose
 * folded form is a word of the query, as they are written. Only the page's rows pay for this, and within
 * them only the snippet window (migration 007), parsed once: its lexemes that are not plain ASCII and fold to
 * a query word. They are made of letters, digits and marks, as query words are, and quote_literal makes
 * plain tsquery lexemes of them.
 */
const accentedWords = sql`LATERAL (
  SELECT string_agg(DISTINCT quote_literal(w.lexeme), ' | ')::tsquery AS query
  FROM unnest(tsvector_to_array(to_tsvector('english', page.snippet_text))) w(lexeme)
  WHERE w.lexeme ~ '[^[:ascii:]]' AND waymark_fold_diacritics(w.lexeme) = ANY (q.lexemes)
) accented`;

async function searchReferences(db: Kysely<DB>, query: ReferenceSearchQuery): Promise<ReferenceSearchHit[]> {
  // ts_rank reads the row's own vector and the query alone (no whole-index statistics), so writes elsewhere,
  // another account's included, do not move scores, and the cursor's score still marks where the previous page ended.
  const after = query.after ? sql`WHERE score < ${query.after.score} OR (score = ${query.after.score} AND id > ${query.after.id})` : sql``;
  const words = query.terms.map((t) => t.words.join(' ')).join(' ');
  // ts_rank is real (float4); as float8 its value prints and parses back exactly, so a cursor holding it
  // compares equal to the recomputed score. The headline is computed outside the LIMIT, for the page only.
  const result = await sql<Omit<ReferenceSearchHit, 'snippet'> & { marked: string }>`
    WITH q AS (
      SELECT ${tsquery(query.terms)} AS query,
             tsvector_to_array(to_tsvector('english', waymark_fold_diacritics(${words}))) AS lexemes
    ),
    page AS (
      SELECT * FROM (
        SELECT r.id, r.title, r.abstract, r.categories, r.scope_id, r.is_active, r.snippet_text,
               ts_rank(r.search_vector, q.query, 1)::float8 AS score
        FROM library_references r, q
        WHERE r.search_vector @@ q.query AND ${sql.join(filters(query), sql` AND `)}
      ) matches ${after}
      ORDER BY score DESC, id ASC
      LIMIT ${query.limit}
    )
    SELECT page.id, page.title, page.abstract, page.categories, page.scope_id, page.is_active, page.score,
           ts_headline('english', page.snippet_text, coalesce(q.query || accented.query, q.query), ${HEADLINE}) AS marked
    FROM page, q, ${accentedWords}
    ORDER BY page.score DESC, page.id ASC`.execute(db);
  return result.rows.map(({ marked, ...hit }) => ({ ...hit, snippet: snippetFromMarked(marked) }));
}

export const postgresSearch: SearchDialect = {
  searchReferences,
};
