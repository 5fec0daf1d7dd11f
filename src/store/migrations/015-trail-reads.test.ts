import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { inboxCounts, inboxPage } from '../repositories/inbox.repo.js';
import { listTrails } from '../repositories/trails.repo.js';
import { migrations } from './index.js';

describe.each(ENGINES)('migration 015 (trail reads) on %s', (engine) => {
  let store: TestStore | undefined;
  afterEach(async () => store?.close());

  it("fills the steps' human_required, the trails' needs_person, the inbox's counts and the participants of the trails stored before it", async () => {
    store = await createTestStore(engine, { migrate: false });
    const s = store.store;
    const migrator = new Migrator({ db: s.db, provider: { getMigrations: async () => migrations(s.dialect) } });
    expect((await migrator.migrateTo('014-revisions')).error).toBeUndefined();
    const json = (value: unknown) => s.dialect.json(value);
    // Rows as 001–014 wrote them, straight in SQL (the typed schema already has 015's columns).
    await sql`INSERT INTO accounts (id, name, created_at) VALUES ('a', 'A', '2026-01-01')`.execute(s.db);
    await sql`INSERT INTO scopes (id, account_id, name, created_at) VALUES ('sc', 'a', 'Desk', '2026-01-01')`.execute(s.db);
    await sql`INSERT INTO bits (id, account_id, scope_id, title, abstract, description, body, categories, complexity, human_required, status, created_by, created_at, updated_at)
      VALUES ('b', 'a', NULL, 'Intake', NULL, NULL, ${json({ children: [] })}, ${json([])}, 'low', 0, 'active', 'p1', '2026-01-01', '2026-01-01')`.execute(s.db);
    for (const [id, scope] of [
      ['f', null],
      ['g', 'sc'],
    ]) {
      await sql`INSERT INTO flows (id, account_id, scope_id, title, description, categories, priority, start_bit_id, trail_context_schema, is_active, review_status, created_by, created_at, updated_at)
        VALUES (${id}, 'a', ${scope}, 'Flow', NULL, ${json([])}, 'medium', 'b', NULL, 1, 'pending', 'p1', '2026-01-01', '2026-01-01')`.execute(s.db);
    }
    const trail = async (id: string, flow: string, status: string, current: string | null, startedBy: string, updatedAt: string) => {
      const scope = flow === 'g' ? 'sc' : null;
      await sql`INSERT INTO trails (id, account_id, scope_id, flow_id, title, context, status, current_step_id, started_by, created_at, updated_at, flow_version)
        VALUES (${id}, 'a', ${scope}, ${flow}, NULL, ${json({})}, ${status}, ${current}, ${startedBy}, '2026-02-01', ${updatedAt}, NULL)`.execute(s.db);
    };
    const step = async (id: string, trailId: string, seq: number, humanRequired: boolean | null, leftBy: string | null = null, sharesWith: string | null = null) => {
      const snapshot = sharesWith ? null : { bit_id: 'b', title: 'Intake', human_required: humanRequired, body: { children: [] } };
      await sql`INSERT INTO trail_steps (id, trail_id, seq, bit_id, bit_snapshot, entered_at, left_at, left_by, snapshot_step_id, bit_title)
        VALUES (${id}, ${trailId}, ${seq}, 'b', ${json(snapshot)}, '2026-02-01', ${leftBy ? '2026-02-02' : null}, ${leftBy}, ${sharesWith}, 'Intake')`.execute(s.db);
    };
    const event = async (trailId: string, stepId: string, kind: string, principal: string | null) => {
      await sql`INSERT INTO trail_events (trail_id, step_id, kind, reason, principal_id, at) VALUES (${trailId}, ${stepId}, ${kind}, 'why', ${principal}, '2026-02-02')`.execute(s.db);
    };
    // t1 running on a step for anyone, answered by p2.
    await trail('t1', 'f', 'running', 's1', 'p1', '2026-03-01');
    await step('s1', 't1', 1, false);
    await sql`INSERT INTO trail_answers (trail_id, step_id, element_id, element_type, value, answered_by, answered_at) VALUES ('t1', 's1', 'e', 'TextArea', ${json({ value: 'x' })}, 'p2', '2026-02-02')`.execute(s.db);
    // t2, in the scope, running on a step that shares a human_required snapshot of the step p3 left.
    await trail('t2', 'g', 'running', 's2b', 'p1', '2026-03-02');
    await step('s2a', 't2', 1, true, 'p3');
    await step('s2b', 't2', 2, null, null, 's2a');
    // t3 handed to a person by p2.
    await trail('t3', 'f', 'waiting_for_person', 's3', 'p1', '2026-03-03');
    await step('s3', 't3', 1, false);
    await event('t3', 's3', 'transfer', 'p2');
    // t4 completed from a human_required step p1 left; t5 cancelled by p4 (human_required is no longer a need).
    await trail('t4', 'f', 'completed', null, 'p2', '2026-03-04');
    await step('s4', 't4', 1, true, 'p1');
    await trail('t5', 'f', 'cancelled', null, 'p1', '2026-03-05');
    await step('s5', 't5', 1, true, 'p4');
    await event('t5', 's5', 'cancel', 'p4');
    // t6 on a human_required step, handed over before 003 recorded who did it.
    await trail('t6', 'f', 'running', 's6', 'p1', '2026-03-06');
    await step('s6', 't6', 1, true);
    await event('t6', 's6', 'transfer', null);
    await s.migrate();

    const steps = await s.db.selectFrom('trail_steps').select(['id', 'human_required']).orderBy('id').execute();
    expect(steps.map((r) => [r.id, Number(r.human_required)])).toEqual([
      ['s1', 0],
      ['s2a', 1],
      ['s2b', 1],
      ['s3', 0],
      ['s4', 1],
      ['s5', 1],
      ['s6', 1],
    ]);
    const trails = await s.db.selectFrom('trails').select(['id', 'needs_person']).orderBy('id').execute();
    expect(trails.map((r) => [r.id, Number(r.needs_person)])).toEqual([
      ['t1', 0],
      ['t2', 1],
      ['t3', 1],
      ['t4', 0],
      ['t5', 0],
      ['t6', 1],
    ]);
    const counts = await s.db.selectFrom('inbox_counts').select(['id', 'scope_id', 'flow_id', 'started_by', 'status', 'needs_person', 'trails']).execute();
    // Sorted here: PostgreSQL's collation orders '|' apart from SQLite's.
    counts.sort((x, y) => (x.id < y.id ? -1 : 1));
    expect(counts.map((r) => ({ ...r, needs_person: Number(r.needs_person), trails: Number(r.trails) }))).toEqual([
      { id: 'a|sc|g|p1|running|1', scope_id: 'sc', flow_id: 'g', started_by: 'p1', status: 'running', needs_person: 1, trails: 1 },
      { id: 'a|sc|g||running|1', scope_id: 'sc', flow_id: 'g', started_by: '', status: 'running', needs_person: 1, trails: 1 },
      { id: 'a||f|p1|running|0', scope_id: null, flow_id: 'f', started_by: 'p1', status: 'running', needs_person: 0, trails: 1 },
      { id: 'a||f|p1|running|1', scope_id: null, flow_id: 'f', started_by: 'p1', status: 'running', needs_person: 1, trails: 1 },
      { id: 'a||f|p1|waiting_for_person|1', scope_id: null, flow_id: 'f', started_by: 'p1', status: 'waiting_for_person', needs_person: 1, trails: 1 },
      { id: 'a||f||running|1', scope_id: null, flow_id: 'f', started_by: '', status: 'running', needs_person: 1, trails: 1 },
      { id: 'a||f||waiting_for_person|1', scope_id: null, flow_id: 'f', started_by: '', status: 'waiting_for_person', needs_person: 1, trails: 1 },
    ]);
    const participants = await s.db.selectFrom('trail_participants').select(['trail_id', 'principal_id', 'updated_at']).orderBy('trail_id').orderBy('principal_id').execute();
    expect(participants.map((r) => `${r.trail_id} ${r.principal_id} ${r.updated_at}`)).toEqual([
      't1 p1 2026-03-01',
      't1 p2 2026-03-01',
      't2 p1 2026-03-02',
      't2 p3 2026-03-02',
      't3 p1 2026-03-03',
      't3 p2 2026-03-03',
      't4 p1 2026-03-04',
      't4 p2 2026-03-04',
      't5 p1 2026-03-05',
      't5 p4 2026-03-05',
      't6 p1 2026-03-06',
    ]);

    // The reads that use them: p2's inbox as a person of the account level (t2 is in another scope), p1's as an agent, "my trails".
    const person = { accountId: 'a', scopeId: 'other', principalId: 'p2', isPerson: true };
    expect(await inboxCounts(s.db, person, {})).toMatchObject({ total: 2, started_by_me: 0, transferred: 1, human_required: 1 });
    expect((await inboxPage(s.db, person, {}, { limit: 10 })).rows.map((t) => [t.id, t.reasons])).toEqual([
      ['t6', ['human_required']],
      ['t3', ['transferred']],
    ]);
    const agent = { accountId: 'a', scopeId: null, principalId: 'p1', isPerson: false };
    expect(await inboxCounts(s.db, agent, {})).toMatchObject({ total: 1, started_by_me: 1, transferred: 0, human_required: 0 });
    expect((await inboxPage(s.db, agent, {}, { limit: 10 })).rows.map((t) => t.id)).toEqual(['t1']);
    const mine = await listTrails(s.db, { accountId: 'a', scopeId: null }, { principalId: 'p2' }, { limit: 10 });
    expect(mine.rows.map((t) => t.id)).toEqual(['t4', 't3', 't1']);
  });
});
