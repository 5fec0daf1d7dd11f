/**
 * The inbox's and "my trails"' statements read the index ranges migration 015 made for them, the cursor as a bound
 * on the range: a query written so that no index serves it still answers right, only slower with every trail, so
 * the plans are checked here, on the embedded store. (PostgreSQL's choice depends on the table's size and
 * statistics; bench/scale.ts writes its plans at 100k trails.)
 */
import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStore, type TestStore } from '../../../test/engines.js';
import type { Db } from '../store.js';
import { inboxCounts, inboxPage, type InboxWho } from './inbox.repo.js';
import { listTrails } from './trails.repo.js';

/** The plan of each statement `read` runs, as EXPLAIN QUERY PLAN's details joined. */
async function plans(db: Db, read: (db: Db) => Promise<unknown>): Promise<string[]> {
  const built: PluginTransformQueryArgs[] = [];
  const executed = new Set<string>();
  const recorder: KyselyPlugin = {
    transformQuery: (args) => {
      built.push(args);
      return args.node;
    },
    transformResult: async (args) => {
      executed.add(args.queryId.queryId);
      return args.result;
    },
  };
  await read(db.withPlugin(recorder));
  const out: string[] = [];
  for (const args of built.filter((b) => executed.has(b.queryId.queryId))) {
    const compiled = db.getExecutor().compileQuery(args.node, args.queryId);
    const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    out.push(rows.rows.map((r) => r.detail).join('; '));
  }
  return out;
}

describe('the inbox and "my trails" on the embedded store', () => {
  let ts: TestStore;
  const person: InboxWho = { accountId: 'a', scopeId: null, principalId: 'p', isPerson: true };
  beforeAll(async () => {
    ts = await createTestStore('sqlite');
  });
  afterAll(async () => ts.close());

  it('read a page from the partial indexes of the caller\'s open trails and of the trails needing a person, by flow too', async () => {
    const db = ts.store.db;
    const [page] = await plans(db, (q) => inboxPage(q, person, {}, { limit: 20 }));
    expect(page).toMatch(/USING INDEX trails_inbox_started \(account_id=\? AND started_by=\?\)/);
    expect(page).toMatch(/USING INDEX trails_inbox_person \(account_id=\?\)/);
    const [byFlow] = await plans(db, (q) => inboxPage(q, person, { flowId: 'f' }, { limit: 20 }));
    expect(byFlow).toMatch(/USING INDEX trails_inbox_started_flow \(account_id=\? AND started_by=\? AND flow_id=\?\)/);
    expect(byFlow).toMatch(/USING INDEX trails_inbox_person_flow \(account_id=\? AND flow_id=\?\)/);
    // Steps assigned to the caller (issue 27), and each group's steps in the groups view.
    expect(page).toMatch(/USING INDEX trails_inbox_assignee \(account_id=\? AND step_assignee=\?\)/);
    const [groups] = await plans(db, (q) => inboxPage(q, { ...person, groupIds: ['g1', 'g2'] }, { view: 'groups' }, { limit: 20 }));
    expect(groups.match(/SEARCH trails USING INDEX trails_inbox_group \(account_id=\? AND step_group=\?\)/g)).toHaveLength(2);
    const [agent] = await plans(db, (q) => inboxPage(q, { ...person, isPerson: false }, {}, { limit: 20 }));
    expect(agent).toMatch(/USING INDEX trails_inbox_started \(account_id=\? AND started_by=\?\)/);
    // Past the cursor, a bound on the same ranges.
    const [next] = await plans(db, (q) => inboxPage(q, person, {}, { limit: 20, cursor: Buffer.from(JSON.stringify(['2026-01-01', 'x'])).toString('base64url') }));
    expect(next).toMatch(/trails_inbox_started \(account_id=\? AND started_by=\? AND \(updated_at,id\)<\(\?,\?\)\)/);
    expect(next).toMatch(/trails_inbox_person \(account_id=\? AND \(updated_at,id\)<\(\?,\?\)\)/);
  });

  it('count from the kept groups, and list "my trails" from the principal\'s participations', async () => {
    const db = ts.store.db;
    // The kept groups, and (issue 27) the index range of the steps assigned to the caller, and of those offered to their groups.
    expect(await plans(db, (q) => inboxCounts(q, person, {}))).toEqual([
      expect.stringMatching(/^SEARCH inbox_counts USING INDEX inbox_counts_starter \(account_id=\? AND started_by=\?\)$/),
      expect.stringMatching(/^SEARCH trails USING INDEX trails_inbox_assignee \(account_id=\? AND step_assignee=\?\)$/),
    ]);
    expect(await plans(db, (q) => inboxCounts(q, { ...person, groupIds: ['g1', 'g2'] }, {}))).toContainEqual(expect.stringMatching(/^SEARCH trails USING INDEX trails_inbox_group \(account_id=\? AND step_group=\?\)$/));
    const [mine] = await plans(db, (q) => listTrails(q, person, { principalId: 'p' }, { limit: 20 }));
    expect(mine).toMatch(/^SEARCH p USING COVERING INDEX trail_participants_principal \(principal_id=\?\); SEARCH trails USING INDEX sqlite_autoindex_trails_1 \(id=\?\)$/);
  });
});
