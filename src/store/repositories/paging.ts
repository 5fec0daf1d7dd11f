/**
 * Keyset pagination shared by the list queries: newest change first, ties broken by id, so a page
 * boundary never skips or repeats a row while the table grows. The cursor is opaque to clients.
 */
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import { validationError } from '../../errors.js';
import { lowerText } from '../dialects/dialect.js';
import { inScope, visibleTo, type Visibility } from '../visibility.js';

export interface PageKey {
  updated_at: string;
  id: string;
}

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.updated_at, key.id])).toString('base64url');
}

/** A cursor as given back by a client; anything we did not hand out is a VALIDATION_ERROR on `cursor`. */
export function decodeCursor(cursor: string): PageKey {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { updated_at: parsed[0], id: parsed[1] };
    }
  } catch {
    // fall through to the refusal below
  }
  throw validationError([{ path: 'cursor', message: 'not a cursor this server handed out; pass next_cursor from the previous page, or omit it' }]);
}

/**
 * Rows strictly after `key` in the order (updated_at desc, id desc), as a row-value comparison: both engines
 * (PostgreSQL, SQLite since 3.15) read it as a bound on the (account_id, updated_at, id) index and start the scan
 * at the cursor. Written as `a < x OR (a = x AND b < y)` it was a filter, and a page at depth n read n rows (issue 31).
 * `columns`: the two key columns, qualified where the query joins (list_trails by principal pages on its
 * participants' copy of updated_at).
 */
export function afterKey<DB, TB extends keyof DB>(_eb: ExpressionBuilder<DB, TB>, key: PageKey, columns: readonly [string, string] = ['updated_at', 'id']): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(columns[0])}, ${sql.ref(columns[1])}) < (${key.updated_at}, ${key.id})`;
}

/** `%text%` for LIKE … ESCAPE '\', with the text's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A page of at most `limit` rows that pass `keep`, fetching batches in key order. `keep` lets a
 * query filter exactly in code what SQL can only narrow down portably (a value inside a JSON array).
 */
export async function keysetPage<R extends PageKey>(
  fetch: (after: PageKey | null, count: number) => Promise<R[]>,
  keep: (row: R) => boolean,
  limit: number,
  cursor: string | undefined,
): Promise<Page<R>> {
  const rows: R[] = [];
  let after = cursor ? decodeCursor(cursor) : null;
  for (;;) {
    const batch = await fetch(after, limit + 1);
    for (const row of batch) {
      if (!keep(row)) continue;
      if (rows.length === limit) return { rows, next_cursor: encodeCursor(rows[rows.length - 1]) };
      rows.push(row);
    }
    if (batch.length < limit + 1) return { rows, next_cursor: null };
    after = batch[batch.length - 1];
  }
}

export interface ListFilter {
  /** undefined: every visible scope; null: account level only. */
  scopeId?: string | null;
  /** Narrowed in SQL, then matched exactly by the caller's `keep` (a value inside a JSON array). */
  category?: string;
  query?: string;
}

export interface Page<R> {
  rows: R[];
  next_cursor: string | null;
}

/** The JSON text of a category as it appears inside the stored array, for a LIKE that narrows the rows. */
export function categoryPattern(category: string): string {
  return `%${JSON.stringify(category).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The rows a list may answer, before its own filters: what `seen` may see, in the filter's scope, narrowed to
 * the category (the caller's `keep` then matches it exactly) and to a case-insensitive `query` found in any of
 * `textColumns`. One fragment for every list of records with categories (bits, flows).
 */
export function listedRows(seen: Visibility, filter: ListFilter, textColumns: readonly string[]): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [visibleTo(seen), inScope(filter.scopeId)];
  if (filter.category !== undefined) parts.push(sql<SqlBool>`cast(categories as text) like ${categoryPattern(filter.category)} escape '\\'`);
  if (filter.query) {
    const pattern = containsPattern(filter.query);
    const matches = textColumns.map((column) => sql<SqlBool>`${lowerText(sql.ref(column))} like ${pattern} escape '\\'`);
    parts.push(sql<SqlBool>`(${sql.join(matches, sql` or `)})`);
  }
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}
