/**
 * The inbox's state kept with each change (migration 015: trails.needs_person, trail_steps.human_required,
 * inbox_counts, trail_participants) says what the old reads derived on every call: the flag out of the current
 * step's snapshot JSON, counts over every open trail, "my trails" from every answer, step and event. A seeded walk of
 * starts, answers, advances, transfers and cancels (through the tools' service and the step form's) by agents and
 * people, one of them limited to a scope, is checked after every change against those derivations, and each
 * principal's inbox and "my trails" against the old rules applied to every trail.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { p, textArea } from '../../../test/trail-fixtures.js';
import { WaymarkError } from '../../errors.js';
import type { Actor } from '../actor.js';

/** mulberry32: the same walk on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface TrailRow {
  id: string;
  account_id: string;
  scope_id: string | null;
  flow_id: string;
  status: string;
  started_by: string;
  updated_at: string;
  needs_person: number;
  /** The current step's human_required as its snapshot JSON holds it (what the inbox used to read). */
  snapshot_hr: number;
}

const OPEN = ['running', 'waiting_for_person'];
const byNewest = (a: TrailRow, b: TrailRow) => (a.updated_at === b.updated_at ? (a.id < b.id ? 1 : -1) : a.updated_at < b.updated_at ? 1 : -1);

describe.each(ENGINES)('the inbox state kept with each change on %s', (engine) => {
  let h: Harness;
  const actors: Array<{ name: string; actor: Actor }> = [];
  const flows: string[] = [];
  const edges = new Map<string, string[]>();
  let note = '';
  const statusesSeen = new Set<string>();

  beforeAll(async () => {
    h = await startHarness(engine);
    const scope = await h.services.auth.createScope(h.accountId, 'desk');
    for (const [i, scopeId] of [null, scope].entries()) {
      const intake = await addTestBit(h, { title: `Intake ${i}`, scopeId, blocks: [p('Collect.'), textArea('notes')] });
      const sign = await addTestBit(h, { title: `Sign ${i}`, scopeId, humanRequired: true });
      const close = await addTestBit(h, { title: `Close ${i}`, scopeId });
      edges.set(intake.bit_id, [await connectTestBits(h, intake.bit_id, sign.bit_id), await connectTestBits(h, intake.bit_id, close.bit_id)]);
      // Back to the intake: a step that shares an earlier step's snapshot (008).
      edges.set(sign.bit_id, [await connectTestBits(h, sign.bit_id, intake.bit_id)]);
      flows.push((await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: `Flow ${i}`, start_bit_id: intake.bit_id, ...(scopeId ? { scope_id: scopeId } : {}) })).flow_id);
      // A flow that starts on a human_required step.
      flows.push((await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: `Signing ${i}`, start_bit_id: sign.bit_id, ...(scopeId ? { scope_id: scopeId } : {}) })).flow_id);
    }
    const principals = {
      owner: h.owner,
      agent: await h.principal({ kind: 'agent', permission: 'view', capabilities: ['read', 'run'] }),
      ann: await h.principal({ kind: 'person', permission: 'view', capabilities: ['read', 'run'] }),
      bo: await h.principal({ kind: 'person', permission: 'view', capabilities: ['read', 'run'] }),
      desk: await h.principal({ kind: 'person', permission: 'view', capabilities: ['read', 'run'], scopeId: scope }),
    };
    for (const [name, principal] of Object.entries(principals)) {
      const authenticated = await h.services.auth.authenticate(principal.token);
      if (!authenticated) throw new Error(`${name} does not authenticate`);
      actors.push({ name, actor: authenticated });
    }
  });
  afterAll(async () => h?.close());

  async function trails(): Promise<TrailRow[]> {
    const hr = engine === 'postgres' ? sql`(hs.snapshot -> 'human_required') = 'true'::jsonb` : sql`json_type(hs.snapshot, '$.human_required') = 'true'`;
    const rows = await sql<TrailRow>`SELECT t.id, t.account_id, t.scope_id, t.flow_id, t.status, t.started_by, t.updated_at, t.needs_person,
        CASE WHEN ${hr} THEN 1 ELSE 0 END AS snapshot_hr
      FROM trails t LEFT JOIN trail_steps s ON s.id = t.current_step_id LEFT JOIN step_snapshots hs ON hs.account_id = t.account_id AND hs.hash = s.snapshot_hash`.execute(h.store.store.db);
    return rows.rows.map((r) => ({ ...r, needs_person: Number(r.needs_person), snapshot_hr: Number(r.snapshot_hr) }));
  }

  /** Who took part in each trail, as list_trails by principal used to find it. */
  async function participations(): Promise<string[]> {
    const rows = await sql<{ trail_id: string; principal_id: string; updated_at: string }>`SELECT p.trail_id, p.principal_id, t.updated_at FROM (
        SELECT id AS trail_id, started_by AS principal_id FROM trails
        UNION SELECT trail_id, answered_by FROM trail_answers
        UNION SELECT trail_id, left_by FROM trail_steps WHERE left_by IS NOT NULL
        UNION SELECT trail_id, principal_id FROM trail_events WHERE principal_id IS NOT NULL) p JOIN trails t ON t.id = p.trail_id`.execute(h.store.store.db);
    return rows.rows.map((r) => `${r.trail_id} ${r.principal_id} ${r.updated_at}`).sort();
  }

  async function check(): Promise<void> {
    const db = h.store.store.db;
    const all = await trails();
    for (const t of all) statusesSeen.add(t.status);
    // needs_person: what the old inbox read out of the snapshot, on every trail.
    const expected = (t: TrailRow) => (t.status === 'waiting_for_person' || (t.status === 'running' && t.snapshot_hr === 1) ? 1 : 0);
    expect(all.map((t) => [t.id, t.needs_person]), note).toEqual(all.map((t) => [t.id, expected(t)]));
    // Every step's human_required column is its snapshot's.
    const steps = await trailStepFlags();
    expect(steps.map((s) => s.column), note).toEqual(steps.map((s) => s.snapshot));
    // The counts: a recount of the open trails by group.
    const groups = new Map<string, number>();
    const add = (key: string) => groups.set(key, (groups.get(key) ?? 0) + 1);
    for (const t of all.filter((t) => OPEN.includes(t.status))) {
      add([t.scope_id, t.flow_id, t.started_by, t.status, t.needs_person].join(' '));
      if (t.needs_person === 1) add([t.scope_id, t.flow_id, '', t.status, 1].join(' '));
    }
    const kept = await db.selectFrom('inbox_counts').select(['scope_id', 'flow_id', 'started_by', 'status', 'needs_person', 'trails']).execute();
    const keptGroups = kept.filter((r) => Number(r.trails) !== 0).map((r) => [[r.scope_id, r.flow_id, r.started_by, r.status, Number(r.needs_person)].join(' '), Number(r.trails)]);
    expect(new Map(keptGroups as Array<[string, number]>), note).toEqual(groups);
    // The participants, each with its trail's updated_at.
    const participants = await db.selectFrom('trail_participants').select(['trail_id', 'principal_id', 'updated_at']).execute();
    expect(participants.map((r) => `${r.trail_id} ${r.principal_id} ${r.updated_at}`).sort(), note).toEqual(await participations());

    for (const { name, actor } of actors) {
      const visible = all.filter((t) => t.account_id === actor.accountId && (actor.scopeId === null || t.scope_id === null || t.scope_id === actor.scopeId)).sort(byNewest);
      // The old rules, on every visible trail, with the flag read from the snapshot.
      const reasons = (t: TrailRow) => {
        if (!OPEN.includes(t.status)) return [];
        if (actor.kind !== 'person') return t.started_by === actor.principalId && t.status === 'running' && t.snapshot_hr === 0 ? ['started_by_me'] : [];
        return [
          ...(t.started_by === actor.principalId ? ['started_by_me'] : []),
          ...(t.status === 'waiting_for_person' ? ['transferred'] : []),
          ...(t.status === 'running' && t.snapshot_hr === 1 ? ['human_required'] : []),
        ];
      };
      const inbox = visible.filter((t) => reasons(t).length > 0);
      const count = (reason: string) => inbox.filter((t) => reasons(t).includes(reason)).length;
      const answer = await h.services.inbox.list(actor, { limit: 100 });
      expect(
        answer.items.map((i) => [i.trail_id, i.reasons]),
        `${note}: ${name}'s inbox`,
      ).toEqual(inbox.map((t) => [t.id, reasons(t)]));
      // This walk names nobody for a step (issue 27's assignments): the view mine is the whole inbox, and everyone (an Admin's) every open trail seen.
      expect(answer.counts, `${note}: ${name}'s counts`).toEqual({
        total: inbox.length,
        mine: inbox.length,
        groups: 0,
        everyone: actor.permission === 'admin' ? visible.filter((t) => OPEN.includes(t.status)).length : null,
        started_by_me: count('started_by_me'),
        transferred: count('transferred'),
        human_required: count('human_required'),
        assigned_to_me: 0,
        my_group: 0,
      });
      const filters: Array<{ reason?: 'human_required'; status?: 'waiting_for_person'; flow_id?: string }> = [{ reason: 'human_required' }, { status: 'waiting_for_person', flow_id: flows[0] }];
      for (const filter of filters) {
        const filtered = inbox.filter((t) => (!filter.status || t.status === filter.status) && (!filter.flow_id || t.flow_id === filter.flow_id) && (!filter.reason || reasons(t).includes(filter.reason)));
        const page = await h.services.inbox.list(actor, { ...filter, limit: 100 });
        expect(page.items.map((i) => i.trail_id), `${note}: ${name}'s inbox by ${JSON.stringify(filter)}`).toEqual(filtered.map((t) => t.id));
      }
      // "My trails": every visible trail the principal took part in, newest change first.
      const mine = new Set((await participations()).filter((line) => line.split(' ')[1] === actor.principalId).map((line) => line.split(' ')[0]));
      const listed = await h.services.trails.list(actor, { principal_id: actor.principalId, limit: 100 });
      expect(listed.trails.map((t) => t.trail_id), `${note}: ${name}'s trails`).toEqual(visible.filter((t) => mine.has(t.id)).map((t) => t.id));
    }
  }

  async function trailStepFlags(): Promise<Array<{ column: number; snapshot: number }>> {
    const hr = engine === 'postgres' ? sql`(hs.snapshot -> 'human_required') = 'true'::jsonb` : sql`json_type(hs.snapshot, '$.human_required') = 'true'`;
    const rows = await sql<{ column: number; snapshot: number }>`SELECT s.human_required AS column, CASE WHEN ${hr} THEN 1 ELSE 0 END AS snapshot
      FROM trail_steps s JOIN trails t ON t.id = s.trail_id JOIN step_snapshots hs ON hs.account_id = t.account_id AND hs.hash = s.snapshot_hash ORDER BY s.id`.execute(h.store.store.db);
    return rows.rows.map((r) => ({ column: Number(r.column), snapshot: Number(r.snapshot) }));
  }

  it('through starts, answers, advances, transfers and cancels by agents and people, the columns, counts and participants say what the old reads derived', async () => {
    const random = prng(31);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const tally: Record<string, number> = {};
    for (let i = 0; i < 70; i++) {
      const { name, actor } = pick(actors);
      // Mostly open trails, now and then an ended one (refused).
      const all = await trails();
      const open = all.filter((t) => OPEN.includes(t.status)).map((t) => t.id);
      const trailId = open.length >= 10 || (open.length > 0 && random() < 0.7) ? pick(random() < 0.9 ? open : all.map((t) => t.id)) : undefined;
      const action = trailId === undefined ? 'start' : pick(['answer', 'advance', 'advance', 'transfer', 'cancel', 'save_step', 'advance_step']);
      note = `change ${i}: ${name} ${action}`;
      try {
        if (trailId === undefined) {
          await h.services.trails.start(actor, { flow_id: pick(flows) }, 'slate');
        } else if (action === 'transfer') {
          await h.services.trails.transfer(actor, { trail_id: trailId, reason: 'needs a person' });
        } else if (action === 'cancel') {
          await h.services.trails.cancel(actor, { trail_id: trailId });
        } else {
          const view = (await h.services.trails.get(actor, { trail_id: trailId }, 'slate')).trail;
          const step = view.current_step;
          if (!step) throw new WaymarkError('TRAIL_NOT_RUNNING', 'ended');
          const notes = step.elements?.[0]?.element_id;
          if (action === 'answer' || action === 'save_step') {
            const data = notes ? [{ element_id: notes, element_type: 'TextArea', value: `note ${i}` }] : [];
            if (action === 'answer') await h.services.trails.submit(actor, { trail_id: trailId, data });
            else await h.services.stepForm.save(actor, { trail_id: trailId, data });
          } else {
            const connections = edges.get(step.bit_id) ?? [];
            const input = { trail_id: trailId, ...(connections.length > 1 ? { connection_id: pick(connections) } : {}) };
            if (action === 'advance') await h.services.trails.advance(actor, input, 'slate');
            else await h.services.stepForm.advance(actor, input);
          }
        }
        tally[action] = (tally[action] ?? 0) + 1;
      } catch (error) {
        // Refusals (an agent on a step for a person, an ended trail, another scope's trail) change nothing.
        if (!(error instanceof WaymarkError)) throw error;
        tally.refused = (tally.refused ?? 0) + 1;
      }
      await check();
    }
    // The walk did each kind of change.
    for (const action of ['start', 'answer', 'advance', 'transfer', 'cancel', 'save_step', 'advance_step', 'refused']) expect(tally[action], action).toBeGreaterThan(0);
    expect([...statusesSeen].sort()).toEqual(['cancelled', 'completed', 'running', 'waiting_for_person']);
  });
});
