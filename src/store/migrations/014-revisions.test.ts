import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { readRevision } from '../../services/revisions/read.js';
import { currentState } from '../../services/revisions/state.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 014 (revisions) on %s', (engine) => {
  let store: TestStore | undefined;
  afterEach(async () => store?.close());

  it('keeps the present state of every bit, flow and reference as its first revision, as the live code reads a state', async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('013-events')).error).toBeUndefined();
    const now = new Date().toISOString();
    const body = { children: [{ type: 'p', children: [{ text: 'Before history.' }] }, { type: 'p', children: [{ text: 'Second.' }] }] };
    // Rows as 001–013 wrote them, straight in SQL; the bit has had two events, the flow and reference none.
    await sql`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', ${now})`.execute(s.db);
    await sql`INSERT INTO bits (id, account_id, scope_id, title, abstract, description, body, categories, complexity, human_required, status, created_by, created_at, updated_at)
      VALUES ('b', 'a', NULL, 'Intake', 'Short', NULL, ${s.dialect.json(body)}, ${s.dialect.json(['hr'])}, 'low', 1, 'active', 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO flows (id, account_id, scope_id, title, description, categories, priority, start_bit_id, trail_context_schema, is_active, review_status, created_by, created_at, updated_at)
      VALUES ('f', 'a', NULL, 'Flow', NULL, ${s.dialect.json([])}, 'medium', 'b', ${s.dialect.json({ type: 'object', properties: {} })}, 0, 'pending', 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO library_references (id, account_id, scope_id, title, abstract, content, search_text, categories, is_active, author_principal_id, created_at, updated_at)
      VALUES ('r', 'a', NULL, 'Handbook', NULL, ${s.dialect.json([{ type: 'p', children: [{ text: 'Rule.' }] }])}, 'Rule.', ${s.dialect.json([])}, 1, 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO bit_reference_links (id, account_id, bit_id, reference_id, display_label, position, created_at) VALUES ('l', 'a', 'b', 'r', NULL, 0, ${now})`.execute(s.db);
    for (const seq of [1, 2]) {
      await sql`INSERT INTO events (id, account_id, seq, occurred_at, scope_id, principal_id, principal_kind, token_id, client_name, operation, resource_type, resource_id, revision, summary, prev_hash, hash)
        VALUES (${`e${seq}`}, 'a', ${seq}, ${now}, NULL, 'p', 'agent', NULL, NULL, 'update_bit', 'bit', 'b', ${seq}, '{}', NULL, 'h')`.execute(s.db);
    }
    // To 014 only: what it kept is compared with the state as the columns of its time read it.
    expect((await migrator.migrateTo('014-revisions')).error).toBeUndefined();

    const rows = await s.db.selectFrom('revisions').select(['resource_id', 'revision', 'kind']).orderBy('resource_id').execute();
    expect(rows.map((r) => [r.resource_id, Number(r.revision), r.kind])).toEqual([
      ['b', 2, 'full'],
      ['f', 0, 'full'],
      ['r', 0, 'full'],
    ]);
    // What the migration kept is what the live code reads as the state now: the next change's diff shows only it.
    for (const [type, id, revision] of [['bit', 'b', 2], ['flow', 'f', 0], ['reference', 'r', 0]] as const) {
      const kept = await readRevision(s.db, 'a', id, revision);
      expect(kept?.state, `${type} ${id}`).toEqual(await currentState(s.db, s.dialect, 'a', type, id));
    }
  });
});
