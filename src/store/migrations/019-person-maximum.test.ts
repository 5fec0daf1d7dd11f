import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { maximumOf } from '../../services/auth/maximum.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 019 (person maximum) on %s', (engine) => {
  let store: TestStore | undefined;
  afterEach(async () => store?.close());

  it('gives every existing principal all three capabilities as its maximum, so nothing changes for them', async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('018-scale-storage')).error).toBeUndefined();
    await sql`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', '2026-01-01')`.execute(s.db);
    await sql`INSERT INTO principals (id, account_id, scope_id, kind, permission, name, created_at, email) VALUES ('p', 'a', NULL, 'person', 'view', 'Pat', '2026-01-01', NULL)`.execute(s.db);
    expect((await migrator.migrateTo('019-person-maximum')).error).toBeUndefined();
    const row = await s.db.selectFrom('principals').select(['max_capabilities', 'invited_by', 'invited_at']).where('id', '=', 'p').executeTakeFirstOrThrow();
    expect(maximumOf(row.max_capabilities)).toEqual(['waymark.author', 'waymark.read', 'waymark.run']);
    expect([row.invited_by, row.invited_at]).toEqual([null, null]);
  });
});
