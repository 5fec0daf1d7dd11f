/**
 * Finished trails archived by age (issue 31): only completed and cancelled trails last changed before the age are
 * archived, each once however many archivers run at once; they leave list_trails (and "my trails") unless
 * include_archived, and get_trail, their steps and their events still answer. `waymark trails archive` runs a pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../../test/cli.js';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { archiveFinishedBefore } from '../../store/repositories/archive.repo.js';
import type { TrailPage, TrailView } from './shapes.js';
import { archiveFinishedTrails, archiverOptionsFromEnv } from './archive.service.js';

const DAY = 86_400_000;

describe.each(ENGINES)('archiving finished trails on %s', (engine) => {
  let h: Harness;
  let flowId: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    const first = (await addTestBit(h, { title: 'First' })).bit_id;
    const last = (await addTestBit(h, { title: 'Last' })).bit_id;
    await connectTestBits(h, first, last);
    flowId = (await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Archivable', start_bit_id: first })).flow_id;
  });
  afterAll(async () => h.close());

  /** A trail in the given state, last changed `daysAgo` days ago. */
  async function trail(state: 'completed' | 'cancelled' | 'running', daysAgo: number): Promise<string> {
    const { trail_id } = await h.owner.client.ok<TrailView>('start_trail', { flow_id: flowId });
    if (state === 'completed') for (let i = 0; i < 2; i++) await h.owner.client.ok('advance_trail', { trail_id });
    if (state === 'cancelled') await h.owner.client.ok('cancel_trail', { trail_id, reason: 'Withdrawn' });
    const at = new Date(Date.now() - daysAgo * DAY).toISOString();
    await h.store.store.db.updateTable('trails').set({ updated_at: at }).where('id', '=', trail_id).execute();
    await h.store.store.db.updateTable('trail_participants').set({ updated_at: at }).where('trail_id', '=', trail_id).execute();
    return trail_id;
  }
  const archivedIds = async () =>
    (await h.store.store.db.selectFrom('trails').select('id').where('archived_at', 'is not', null).orderBy('id').execute()).map((r) => r.id);
  const listed = async (input: Record<string, unknown> = {}) => (await h.owner.client.ok<TrailPage>('list_trails', { limit: 100, ...input })).trails;

  it('archives the completed and cancelled trails older than the age, each once with archivers running at once; lists leave them out, reads keep them', async () => {
    const old = [await trail('completed', 200), await trail('cancelled', 150), await trail('completed', 120), await trail('cancelled', 100), await trail('completed', 95)];
    const openOld = await trail('running', 300);
    const recent = await trail('completed', 10);
    const eventsBefore = await h.store.store.db.selectFrom('events').select('id').where('account_id', '=', h.accountId).execute();

    // Three archivers at once, two trails a batch: every old finished trail archived, once.
    const before = new Date(Date.now() - 90 * DAY).toISOString();
    const at = new Date().toISOString();
    const archiver = async () => {
      let total = 0;
      for (let n = -1; n !== 0; total += n) n = await archiveFinishedBefore(h.store.store.db, before, at, 2);
      return total;
    };
    const counts = await Promise.all([archiver(), archiver(), archiver()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(old.length);
    expect(await archivedIds()).toEqual([...old].sort());
    expect(await archiveFinishedTrails(h.store.store, 90 * DAY)).toBe(0);

    const ids = (rows: Array<{ trail_id: string }>) => rows.map((t) => t.trail_id);
    const live = await listed();
    expect(ids(live)).toEqual(expect.arrayContaining([openOld, recent]));
    expect(ids(live).filter((id) => old.includes(id))).toEqual([]);
    expect(ids(await listed({ principal_id: h.owner.principalId })).filter((id) => old.includes(id))).toEqual([]);
    expect(ids(await listed({ status: 'completed' }))).toEqual([recent]);
    const all = await listed({ include_archived: true });
    expect(ids(all)).toEqual(expect.arrayContaining([...old, openOld, recent]));
    expect(all.find((t) => t.trail_id === old[0])?.archived_date_time_utc).toBe(at);
    expect(all.find((t) => t.trail_id === recent)?.archived_date_time_utc).toBeNull();
    expect(ids(await listed({ principal_id: h.owner.principalId, include_archived: true }))).toEqual(expect.arrayContaining(old));

    // Still readable whole; nothing recorded, nothing removed.
    const read = await h.owner.client.ok<TrailView>('get_trail', { trail_id: old[0] });
    expect(read).toMatchObject({ trail_id: old[0], status: 'completed' });
    expect(read.history.map((s) => s.bit_title)).toEqual(['First', 'Last']);
    const cancelled = await h.owner.client.ok<TrailView>('get_trail', { trail_id: old[1] });
    expect(cancelled.status).toBe('cancelled');
    const eventsAfter = await h.store.store.db.selectFrom('events').select('id').where('account_id', '=', h.accountId).execute();
    expect(eventsAfter.length).toBe(eventsBefore.length);

    // The command line's pass takes what has aged since: here the trail changed 10 days ago, at 7 days.
    const cli = await waymark(h.store.env, 'trails', 'archive', '--older-than', '7d');
    expect(cli.stdout).toBe('Archived 1 completed or cancelled trail last changed more than 7d ago.\n');
    expect(await archivedIds()).toEqual([...old, recent].sort());
  });

  it('is off unless WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS says an age; a bad age is refused in words', () => {
    expect(archiverOptionsFromEnv({}).afterMs).toBeUndefined();
    expect(archiverOptionsFromEnv({ WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS: '0' }).afterMs).toBeUndefined();
    expect(archiverOptionsFromEnv({ WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS: '90' }).afterMs).toBe(90 * DAY);
    expect(() => archiverOptionsFromEnv({ WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS: 'soon' })).toThrow('WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS must be a positive number of days, or 0 to archive nothing (got soon)');
  });
});
