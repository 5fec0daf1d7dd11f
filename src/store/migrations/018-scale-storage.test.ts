import { createHash } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { stepSnapshot } from '../repositories/trails.repo.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 018 (scale storage) on %s', (engine) => {
  let store: TestStore | undefined;
  afterEach(async () => store?.close());

  it("moves every step's snapshot into step_snapshots, once per account and content, and each step reads the one it entered", async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('017-team-runs')).error).toBeUndefined();
    const json = (value: unknown) => s.dialect.json(value);
    const hashOf = (value: unknown) => createHash('sha256').update(json(value)).digest('hex');
    const intake = { bit_id: 'b', title: 'Intake', human_required: false, body: { children: [] } };
    const review = { bit_id: 'c', title: 'Review', human_required: true, body: { children: [] } };
    for (const account of ['a', 'z']) {
      await sql`INSERT INTO accounts (id, name, created_at) VALUES (${account}, 'A', '2026-01-01')`.execute(s.db);
      await sql`INSERT INTO bits (id, account_id, scope_id, title, abstract, description, body, categories, complexity, human_required, status, created_by, created_at, updated_at)
        VALUES (${`b-${account}`}, ${account}, NULL, 'Intake', NULL, NULL, ${json({ children: [] })}, ${json([])}, 'low', 0, 'active', 'p1', '2026-01-01', '2026-01-01')`.execute(s.db);
      await sql`INSERT INTO flows (id, account_id, scope_id, title, description, categories, priority, start_bit_id, trail_context_schema, is_active, review_status, created_by, created_at, updated_at)
        VALUES (${`f-${account}`}, ${account}, NULL, 'Flow', NULL, ${json([])}, 'medium', ${`b-${account}`}, NULL, 1, 'pending', 'p1', '2026-01-01', '2026-01-01')`.execute(s.db);
    }
    const trail = async (id: string, account: string) => {
      await sql`INSERT INTO trails (id, account_id, scope_id, flow_id, title, context, status, current_step_id, started_by, created_at, updated_at, flow_version)
        VALUES (${id}, ${account}, NULL, ${`f-${account}`}, NULL, ${json({})}, 'running', NULL, 'p1', '2026-02-01', '2026-02-01', NULL)`.execute(s.db);
    };
    /** A step as 008–017 wrote it: its snapshot and hash, or the earlier step it shares; `hash: false` as before 008. */
    const step = async (id: string, trailId: string, seq: number, snapshot: unknown, sharesWith: string | null = null, hash = true) => {
      const bit = trailId === 't3' ? 'b-z' : 'b-a';
      await sql`INSERT INTO trail_steps (id, trail_id, seq, bit_id, bit_snapshot, entered_at, snapshot_hash, snapshot_step_id, bit_title)
        VALUES (${id}, ${trailId}, ${seq}, ${bit}, ${json(sharesWith ? null : snapshot)}, '2026-02-01', ${hash ? hashOf(snapshot) : null}, ${sharesWith}, 'Intake')`.execute(s.db);
    };
    // Two trails of account a through the same bits (a loop in t1), one of account z; an old step without a hash.
    await trail('t1', 'a');
    await step('s1', 't1', 1, intake);
    await step('s2', 't1', 2, review);
    await step('s3', 't1', 3, intake, 's1');
    await trail('t2', 'a');
    await step('s4', 't2', 1, intake);
    await step('s5', 't2', 2, review);
    await trail('t3', 'z');
    await step('s6', 't3', 1, intake);
    await trail('t4', 'a');
    await step('s7', 't4', 1, { ...intake, title: 'Old intake' }, null, false);
    expect((await s.migrate()).results?.map((r) => r.migrationName)).toContain('018-scale-storage');

    const stored = await s.db.selectFrom('step_snapshots').select(['account_id']).orderBy('account_id').execute();
    // a: intake, review and the old one; z: its own intake.
    expect(stored.map((r) => r.account_id)).toEqual(['a', 'a', 'a', 'z']);
    const expected: Record<string, unknown> = { s1: intake, s2: review, s3: intake, s4: intake, s5: review, s6: intake, s7: { ...intake, title: 'Old intake' } };
    for (const [id, snapshot] of Object.entries(expected)) expect(s.dialect.parseJson(await stepSnapshot(s.db, { id })), id).toEqual(snapshot);
    const steps = await s.db.selectFrom('trail_steps').select(['bit_snapshot', 'snapshot_step_id', 'snapshot_hash']).execute();
    expect(steps.every((r) => s.dialect.parseJson(r.bit_snapshot) === null && r.snapshot_step_id === null && r.snapshot_hash !== null)).toBe(true);
  });
});
