import { randomUUID } from 'node:crypto';
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { connectClient, type ToolClient } from '../../../test/harness.js';
import { capabilityName } from '../../config.js';
import { createServices } from '../../services/index.js';
import { insertReferences } from '../repositories/references.repo.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 005 (search folds diacritics) on %s', (engine) => {
  let store: TestStore | undefined;
  let client: ToolClient | undefined;
  afterEach(async () => {
    await client?.close();
    await store?.close();
  });

  it('rebuilds the search index of references stored before it', async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    const before = await migrator.migrateTo('003-trail-step-actors');
    expect(before.error).toBeUndefined();
    const services = createServices(s);
    const now = new Date().toISOString();
    // The account as stored then, written directly: today's services also append an event, a table of a later migration.
    const accountId = randomUUID();
    await s.db.insertInto('accounts').values({ id: accountId, name: 'before 005', created_at: now }).execute();
    const authorId = randomUUID();
    // As stored before migration 007 added snippet_text.
    await insertReferences(s.db, [{
      id: 'old-reference', account_id: accountId, scope_id: null, title: 'Crème brûlée', abstract: null,
      content: s.dialect.json([{ type: 'p', children: [{ text: 'A café dessert.' }] }]), search_text: 'A café dessert.',
      categories: s.dialect.json([]), is_active: 1, author_principal_id: authorId, created_at: now, updated_at: now,
    } as Parameters<typeof insertReferences>[1][number]]);
    await s.migrate();
    const issued = await services.auth.createToken({ accountId, permission: 'view', capabilities: [capabilityName('read')] });
    client = await connectClient(services, issued.token);
    const found = await client.ok<{ results: Array<{ reference_id: string; reference_title: string; snippet: string }> }>('search_references', { query: 'creme brulee cafe' });
    expect(found.results.map((r) => [r.reference_id, r.reference_title])).toEqual([['old-reference', 'Crème brûlée']]);
    // The snippet is of the text as written, the accented word marked (the engines cut the excerpt differently).
    expect(found.results[0]?.snippet).toContain('**café** dessert');
  });
});
