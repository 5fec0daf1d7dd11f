import { sql, type Kysely, type Migration } from 'kysely';
import { searchTexts } from '../../content/search-text.js';
import type { StoreDialect } from '../dialects/dialect.js';

const BATCH = 200;

/**
 * Search work bounded whatever a reference holds (issue 16, finding 4): the indexed text is cut to
 * LIMITS.searchableReferenceChars and a new column, snippet_text, keeps the prefix that snippets are cut
 * from; both are computed for the references stored before, as the services compute them (content/search-text.ts).
 * SQLite's index is rebuilt to read the snippet window as a column of its own (sqlite-search.ts).
 */
export function searchWindow(dialect: StoreDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('library_references').addColumn('snippet_text', 'text', (c) => c.notNull().defaultTo('')).execute();
      await dialect.search.migrateSnippetWindow(db, () => boundStoredTexts(db));
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
