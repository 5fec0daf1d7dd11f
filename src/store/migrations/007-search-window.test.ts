import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { connectClient, type ToolClient } from '../../../test/harness.js';
import { capabilityName } from '../../config.js';
import { LIMITS } from '../../limits/index.js';
import { createServices } from '../../services/index.js';
import { insertReferences } from '../repositories/references.repo.js';
import { migrations } from './index.js';


/** Record ids are UUIDs (the tools refuse anything else); these sort long before short, as the rows are read. */
const LONG_ID = '00000000-0000-4000-8000-000000000001';
const SHORT_ID = '00000000-0000-4000-8000-000000000002';
describe.each(ENGINES)('migration 007 (search window) on %s', (engine) => {
  let store: TestStore | undefined;
  let client: ToolClient | undefined;
  afterEach(async () => {
    await client?.close();
    await store?.close();
  });

  it('bounds the indexed text of references stored before it and cuts their snippets from the window', async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('006-lower-text')).error).toBeUndefined();
    const services = createServices(s);
    const now = new Date().toISOString();
    // The account as stored then, written directly: today's services also append an event, a table of a later migration.
    const accountId = randomUUID();
    await s.db.insertInto('accounts').values({ id: accountId, name: 'before 007', created_at: now }).execute();
    const authorId = randomUUID();
    // Stored whole before 007: a word early, one past the snippet window, one past the searchable bound.
    const filler = (n: number) => 'filler words here '.repeat(Math.ceil(n / 18));
    const long = `Early lighthouse notes. ${filler(LIMITS.snippetWindowChars)} middle albatross. ${filler(LIMITS.searchableReferenceChars)} late kingfisher.`;
    const row = (id: string, title: string, text: string) => ({
      id, account_id: accountId, scope_id: null, title, abstract: null, content: s.dialect.json([{ type: 'p', children: [{ text }] }]),
      search_text: text, categories: s.dialect.json([]), is_active: 1, author_principal_id: authorId, created_at: now, updated_at: now,
    }) as Parameters<typeof insertReferences>[1][number];
    await insertReferences(s.db, [row(LONG_ID, 'Coast', long), row(SHORT_ID, 'Harbour', 'A short lighthouse note.')]);
    await s.migrate();
    const issued = await services.auth.createToken({ accountId, permission: 'view', capabilities: [capabilityName('read')] });

    const stored = await sql<{ id: string; search_text: string; snippet_text: string }>`SELECT id, search_text, snippet_text FROM library_references ORDER BY id`.execute(s.db);
    const [longRow, shortRow] = stored.rows;
    expect(longRow?.search_text.length).toBeLessThanOrEqual(LIMITS.searchableReferenceChars);
    expect(longRow?.snippet_text.length).toBeLessThanOrEqual(LIMITS.snippetWindowChars);
    expect(longRow?.search_text.startsWith(longRow.snippet_text)).toBe(true);
    expect(shortRow).toEqual({ id: SHORT_ID, search_text: 'A short lighthouse note.', snippet_text: 'A short lighthouse note.' });

    client = await connectClient(services, issued.token);
    type Page = { results: Array<{ reference_id: string; snippet: string }> };
    const found = (query: string) => client!.ok<Page>('search_references', { query });
    const lighthouse = (await found('lighthouse')).results.map((r) => [r.reference_id, r.snippet]);
    // Ranked differently by the engines (ts_rank weighs length, SQLite does not): compared by id.
    expect(lighthouse.sort((x, y) => String(x[0]).localeCompare(String(y[0])))).toEqual([
      [LONG_ID, expect.stringMatching(/^Early \*\*lighthouse\*\* notes\. filler.*…$/)],
      [SHORT_ID, 'A short **lighthouse** note.'],
    ]);
    // Past the window: found, the snippet from the window's start; past the bound: not found.
    const albatross = (await found('albatross')).results.map((r) => [r.reference_id, r.snippet]);
    expect(albatross).toEqual([[LONG_ID, expect.stringMatching(/^Early lighthouse notes\. filler.*…$/)]]);
    expect((await found('kingfisher')).results).toEqual([]);
    // The reference itself is still whole.
    const whole = await client.ok<{ reference_content: Array<{ children: Array<{ text: string }> }> }>('get_reference', { reference_id: LONG_ID });
    expect(whole.reference_content[0]?.children[0]?.text).toBe(long);
  });
});
