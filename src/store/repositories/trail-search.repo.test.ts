/**
 * The Trails page's search examines a bounded window of one index range (trail-search.repo.ts): a page that the
 * window ends before it is full says how far back it looked and continues from there, and the ranges are the
 * indexes' own (checked on the embedded store's plans, as inbox.repo.test.ts does for the inbox).
 */
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, ENGINES, type TestStore } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import type { Db } from '../store.js';
import { csvCell, csvText } from '../../services/trails/csv.js';
import { quantile } from '../../services/trails/trail-search.service.js';
import { holdsText, searchTrails, type TrailSearchFilter } from './trail-search.repo.js';

const seen = { accountId: 'a', scopeId: null };
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();

describe.each(ENGINES)('the trail search window on %s', (engine) => {
  let h: Harness;
  let seenHere: { accountId: string; scopeId: null };
  beforeAll(async () => {
    h = await startHarness(engine);
    const db = h.store.store.db;
    seenHere = { accountId: h.accountId, scopeId: null };
    const bit = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'B', bit_body: 'B.' });
    const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'F', start_bit_id: bit.bit_id });
    // Ten trails, t0 changed first; t0, t3 and t6 cancelled; t9 waits for a person, t8 is given to p.
    for (let i = 0; i < 10; i++) {
      await db
        .insertInto('trails')
        .values({
          id: `t${i}`, account_id: h.accountId, scope_id: null, flow_id: flow.flow_id, title: `Trail ${i}`, context: h.store.store.dialect.json({ n: i }),
          status: i % 3 === 0 && i !== 9 ? 'cancelled' : 'running', current_step_id: null, started_by: 'p', created_at: at(i), updated_at: at(100 + i), flow_version: null,
          needs_person: i === 9 ? 1 : 0, step_assignee: i === 8 ? 'p' : null, step_group: null, step_due_at: null, step_reminded: 0, due_at: null, due_reminded: 0,
        } as never)
        .execute();
    }
  });
  afterAll(async () => h.close());

  const page = (filter: TrailSearchFilter, cursor?: string) => searchTrails(h.store.store.db, h.store.store.dialect, seenHere, filter, { limit: 2, cursor, window: 4 });

  it('answers what a window of four trails holds, how far back it looked, and continues from there', async () => {
    // t9..t6 examined: t6 is the only cancelled one among them.
    const first = await page({ statuses: ['cancelled'] });
    expect(first.rows.map((r) => r.id)).toEqual(['t6']);
    expect(first.searched_back_to).toBe(at(106));
    const second = await page({ statuses: ['cancelled'] }, first.next_cursor as string);
    expect(second.rows.map((r) => r.id)).toEqual(['t3']);
    expect(second.searched_back_to).toBe(at(102));
    const last = await page({ statuses: ['cancelled'] }, second.next_cursor as string);
    expect(last).toEqual({ rows: [expect.objectContaining({ id: 't0' })], next_cursor: null, searched_back_to: null });
    // A full page ends on its last row, as any list does.
    const full = await page({});
    expect(full.rows.map((r) => r.id)).toEqual(['t9', 't8']);
    expect(full.searched_back_to).toBeNull();
    expect((await page({}, full.next_cursor as string)).rows.map((r) => r.id)).toEqual(['t7', 't6']);
  });

  it('waits for a principal on its two ranges: given to it, or needing a person given to no one', async () => {
    expect((await page({ waitingFor: { principalId: 'p', isPerson: true } })).rows.map((r) => r.id)).toEqual(['t9', 't8']);
    expect((await page({ waitingFor: { principalId: 'p', isPerson: false } })).rows.map((r) => r.id)).toEqual(['t8']);
    expect((await page({ waitingFor: { principalId: 'q', isPerson: true } })).rows.map((r) => r.id)).toEqual(['t9']);
  });
});

/** The plans of the statements `read` runs, as EXPLAIN QUERY PLAN's details joined. */
async function plans(db: Db, read: (db: Db) => Promise<unknown>): Promise<string> {
  const built: PluginTransformQueryArgs[] = [];
  const executed = new Set<string>();
  const recorder: KyselyPlugin = {
    transformQuery: (args) => (built.push(args), args.node),
    transformResult: async (args) => (executed.add(args.queryId.queryId), args.result),
  };
  await read(db.withPlugin(recorder));
  const out: string[] = [];
  for (const args of built.filter((b) => executed.has(b.queryId.queryId))) {
    const compiled = db.getExecutor().compileQuery(args.node, args.queryId);
    const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    out.push(rows.rows.map((r) => r.detail).join('; '));
  }
  return out.join('\n');
}

describe('the trail search on the embedded store', () => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore('sqlite');
  });
  afterAll(async () => ts.close());
  const read = (filter: TrailSearchFilter) => plans(ts.store.db, (db) => searchTrails(db, ts.store.dialect, seen, filter, { limit: 20, window: 2000 }));

  it("reads its window from the account's, the flow's or the inbox's index range, and tests the other filters there", async () => {
    const all = await read({ statuses: ['completed'], text: 'x', startedSince: at(0) });
    expect(all).toMatch(/SEARCH trails USING (COVERING )?INDEX trails_account_updated \(account_id=\?\)/);
    const flow = await read({ flowId: 'f' });
    expect(flow).toMatch(/SEARCH trails USING (COVERING )?INDEX trails_flow_updated \(account_id=\? AND flow_id=\?\)/);
    const waiting = await read({ waitingFor: { principalId: 'p', isPerson: true } });
    expect(waiting).toMatch(/INDEX trails_inbox_assignee \(account_id=\? AND step_assignee=\?\)/);
    expect(waiting).toMatch(/INDEX trails_inbox_person \(account_id=\?\)/);
    for (const plan of [all, flow, waiting]) expect(plan).not.toMatch(/SCAN trails(?! USING)/);
  });
});

describe('the pieces', () => {
  it('escapes CSV cells and prefixes a would-be formula', () => {
    expect(['plain', 'a,b', 'say "hi"', 'two\nlines', '=1+1', '+1', '-1', '@SUM(A1)', '\t=1', null, 5].map(csvCell)).toEqual([
      'plain', '"a,b"', '"say ""hi"""', '"two\nlines"', "'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\t=1", '', '5',
    ]);
    expect(csvText([['a', 'b'], ['=c', null]])).toBe("a,b\r\n'=c,\r\n");
  });

  it('figures quantiles between the nearest ranks', () => {
    expect(quantile([30, 60, 120, 240], 0.5)).toBe(90);
    expect(quantile([30, 60, 120, 240], 0.9)).toBeCloseTo(204, 9);
    expect([0.5, 0.9].map((q) => quantile([7], q))).toEqual([7, 7]);
  });

  it('finds the text in a title or a value, never a key', () => {
    expect(holdsText({ title: null, context: { who: { name: 'Zoë' } } }, 'ZOË')).toBe(true);
    expect(holdsText({ title: null, context: { amount: 1234 } }, '23')).toBe(true);
    expect(holdsText({ title: null, context: { amount: 1 } }, 'amount')).toBe(false);
    expect(holdsText({ title: 'Quarterly', context: {} }, 'TERL')).toBe(true);
  });
});
