import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 008 (trail bounds) on %s', (engine) => {
  let store: TestStore | undefined;
  afterEach(async () => store?.close());

  it("fills the title of steps and the size of answers stored before it; their snapshots stay each step's own", async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('007-search-window')).error).toBeUndefined();
    const now = new Date().toISOString();
    // Rows as 001–007 wrote them, straight in SQL (the typed schema already has 008's columns).
    await sql`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', ${now})`.execute(s.db);
    await sql`INSERT INTO bits (id, account_id, scope_id, title, abstract, description, body, categories, complexity, human_required, status, created_by, created_at, updated_at)
      VALUES ('b', 'a', NULL, 'Intake', NULL, NULL, ${s.dialect.json({ children: [] })}, ${s.dialect.json([])}, 'low', 0, 'active', 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO flows (id, account_id, scope_id, title, description, categories, priority, start_bit_id, trail_context_schema, is_active, review_status, created_by, created_at, updated_at)
      VALUES ('f', 'a', NULL, 'Flow', NULL, ${s.dialect.json([])}, 'medium', 'b', NULL, 1, 'pending', 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO trails (id, account_id, scope_id, flow_id, title, context, status, current_step_id, started_by, created_at, updated_at)
      VALUES ('t', 'a', NULL, 'f', NULL, ${s.dialect.json({})}, 'running', 's1', 'p', ${now}, ${now})`.execute(s.db);
    await sql`INSERT INTO trail_steps (id, trail_id, seq, bit_id, bit_snapshot, entered_at)
      VALUES ('s1', 't', 1, 'b', ${s.dialect.json({ bit_id: 'b', title: 'Intake ü', body: { children: [] } })}, ${now})`.execute(s.db);
    const value = s.dialect.json({ value: 'naïve' });
    await sql`INSERT INTO trail_answers (trail_id, step_id, element_id, element_type, value, answered_by, answered_at)
      VALUES ('t', 's1', 'e', 'TextArea', ${value}, 'p', ${now})`.execute(s.db);
    // To 008 only: 018 later moves every snapshot into step_snapshots, with its hash (018's own test).
    expect((await migrator.migrateTo('008-trail-bounds')).error).toBeUndefined();

    const step = await s.db.selectFrom('trail_steps').select(['bit_title', 'snapshot_hash', 'snapshot_step_id']).where('id', '=', 's1').executeTakeFirstOrThrow();
    expect(step).toEqual({ bit_title: 'Intake ü', snapshot_hash: null, snapshot_step_id: null });
    const answer = await s.db.selectFrom('trail_answers').select('value_bytes').executeTakeFirstOrThrow();
    // PostgreSQL prints jsonb with a space after the colon: its own text of the value, a byte longer.
    expect(Number(answer.value_bytes)).toBe(Buffer.byteLength(value) + (engine === 'postgres' ? 1 : 0));
  });
});
