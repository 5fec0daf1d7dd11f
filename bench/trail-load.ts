/**
 * A team's trails loaded in bulk for bench/scale.ts (issue 31): 50 people and 5 agents running 20 flows of three
 * steps (an intake with a notes field, a human_required review, a close). The team, its flows and one real trail
 * per flow are made through the tools; the trails after them are written straight into the store in batches of
 * 500, each as the services leave one: its steps with the snapshots the real runs took, answers, transfers and
 * cancels as events, needs_person by the services' own rule, the inbox's counts through the repository that keeps
 * them, its participants.
 *
 * Mixed status: 55% completed, 10% cancelled, 25% running (a third of them on the human_required review), 10%
 * handed to a person; 70% started by people, 30% by agents. Trail i starts a minute after trail i - 1, so each
 * load is newer than the last.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import { capabilityName } from '../src/config.js';
import { needsPerson } from '../src/services/trails/trails.service.js';
import { shiftInboxCounts } from '../src/store/repositories/inbox.repo.js';
import type { EventTable, TrailAnswerTable, TrailEventTable, TrailParticipantTable, TrailStepTable, TrailTable } from '../src/store/schema.js';
import type { Store } from '../src/store/store.js';
import { connectClient, type ToolClient } from '../test/harness.js';
import { bodyOf, p, textArea } from '../test/trail-fixtures.js';
import { initOwner, type Owner } from './bodies.js';
import { prng } from './scaling.js';

export const PEOPLE = 50;
export const AGENTS = 5;
export const FLOWS = 20;
const BATCH = 500;
/** A step's own bit_snapshot since migration 018: the JSON null (its snapshot is in step_snapshots). */
const NULL_JSON = 'null';

export interface Member {
  principalId: string;
  token: string;
}

interface StepTemplate {
  bitId: string;
  title: string;
  humanRequired: boolean;
  /** The hash of the snapshot a real run stored (in step_snapshots). */
  hash: string;
  revision: number | null;
  /** The intake's notes field. */
  elementId: string | null;
}

export interface Team {
  owner: Owner;
  people: Member[];
  agents: Member[];
  flows: Array<{ flowId: string; steps: StepTemplate[] }>;
}

async function member(owner: Owner, kind: 'person' | 'agent'): Promise<Member> {
  const issued = await owner.services.auth.createToken({ accountId: owner.accountId, permission: 'view', capabilities: (['read', 'run'] as const).map(capabilityName), scopeId: null, kind });
  return { principalId: issued.principalId, token: issued.token };
}

/** The team, its flows, and one trail per flow run to its end through the tools (an agent hands the review to the first person). */
export async function makeTeam(store: Store): Promise<Team> {
  const owner = await initOwner(store);
  const people: Member[] = [];
  const agents: Member[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await member(owner, 'person'));
  for (let i = 0; i < AGENTS; i++) agents.push(await member(owner, 'agent'));
  const author = await connectClient(owner.services, owner.token);
  const agent = await connectClient(owner.services, agents[0]?.token);
  const person = await connectClient(owner.services, people[0]?.token);
  const flows: Team['flows'] = [];
  try {
    for (let f = 0; f < FLOWS; f++) flows.push(await makeFlow(store, author, agent, person, f));
  } finally {
    for (const client of [author, agent, person]) await client.close();
  }
  return { owner, people, agents, flows };
}

async function makeFlow(store: Store, author: ToolClient, agent: ToolClient, person: ToolClient, f: number): Promise<Team['flows'][number]> {
  const intakeBody = bodyOf([p(`Collect request ${f}: who asks, for what, by when.`), textArea('notes')]);
  const intake = await author.ok<{ bit_id: string; minted_node_ids: Record<string, string> }>('add_bit', { bit_title: `Intake ${f}`, bit_body: intakeBody.markdown, elements: intakeBody.elements });
  const review = await author.ok<{ bit_id: string }>('add_bit', { bit_title: `Review ${f}`, bit_body: 'A manager checks the request and signs it off.', human_required: true });
  const close = await author.ok<{ bit_id: string }>('add_bit', { bit_title: `Close ${f}`, bit_body: 'Tell the requester and file the record.' });
  await author.ok('connect_bits', { source_bit_id: intake.bit_id, target_bit_id: review.bit_id });
  await author.ok('connect_bits', { source_bit_id: review.bit_id, target_bit_id: close.bit_id });
  const { flow_id } = await author.ok<{ flow_id: string }>('create_flow', { flow_title: `Flow ${f}`, start_bit_id: intake.bit_id });
  const trail = await agent.ok<{ trail_id: string }>('start_trail', { flow_id, trail_title: `Run ${f}` });
  await agent.ok('advance_trail', { trail_id: trail.trail_id });
  await person.ok('advance_trail', { trail_id: trail.trail_id });
  await agent.ok('advance_trail', { trail_id: trail.trail_id });
  // The loaded steps refer to the snapshots the real run stored (migration 018: once per account).
  const rows = await store.db.selectFrom('trail_steps').select(['bit_id', 'bit_title', 'snapshot_hash', 'human_required', 'bit_revision']).where('trail_id', '=', trail.trail_id).orderBy('seq').execute();
  const steps = rows.map(
    (row): StepTemplate => ({
      bitId: row.bit_id,
      title: row.bit_title ?? '',
      humanRequired: Number(row.human_required) === 1,
      hash: row.snapshot_hash as string,
      revision: row.bit_revision === null ? null : Number(row.bit_revision),
      elementId: row.bit_id === intake.bit_id ? (intake.minted_node_ids.notes ?? null) : null,
    }),
  );
  if (steps.length !== 3) throw new Error(`flow ${f}: the real run took ${steps.length} steps, not 3`);
  return { flowId: flow_id, steps };
}

interface Rows {
  trails: TrailTable[];
  steps: Array<Insertable<TrailStepTable>>;
  answers: Array<Insertable<TrailAnswerTable>>;
  events: Array<Insertable<TrailEventTable>>;
  participants: TrailParticipantTable[];
  /** The account's event log (migration 013): EVENTS_PER_TRAIL changes of each trail, seq numbered on load. */
  changes: Array<Omit<EventTable, 'seq'>>;
}

/**
 * Changes recorded per trail: a million events at 100k trails, the "100k trails and 1M events". Each is a
 * change of the trail by one of the people who took part in it (start, answers, advances), spread over its life.
 */
export const EVENTS_PER_TRAIL = 10;
const CHANGE_OPERATIONS = ['start_trail', 'submit_step_data', 'advance_trail', 'submit_step_data', 'advance_trail', 'submit_step_data', 'advance_trail', 'transfer_step', 'submit_step_data', 'advance_trail'];

const START = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** Trail `i` of the load with its rows, drawn from `random`. */
function trailRows(team: Team, i: number, random: () => number, rows: Rows): void {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const flow = pick(team.flows);
  const starter = random() < 0.7 ? pick(team.people) : pick(team.agents);
  const anyone = () => (random() < 0.6 ? starter : random() < 0.7 ? pick(team.people) : pick(team.agents));
  const r = random();
  const status = r < 0.55 ? 'completed' : r < 0.65 ? 'cancelled' : r < 0.9 ? 'running' : 'waiting_for_person';
  // The step it is at (open) or ended on (cancelled); a completed trail left all three.
  const at = status === 'completed' ? 3 : 1 + Math.floor(random() * 3);
  const id = randomUUID();
  const created = START + i * 60_000;
  let clock = created;
  const tick = () => (clock += 60_000 + Math.floor(random() * 3_600_000));
  const stepIds: string[] = [];
  const who = new Set([starter.principalId]);
  for (let seq = 1; seq <= at; seq++) {
    const template = flow.steps[seq - 1] as StepTemplate;
    const stepId = randomUUID();
    stepIds.push(stepId);
    const entered = iso(seq === 1 ? created : clock);
    const leaves = seq < at || status === 'completed' || status === 'cancelled';
    const leaver = template.humanRequired ? pick(team.people) : anyone();
    if (leaves) who.add(leaver.principalId);
    if (template.elementId && leaves && status !== 'cancelled') {
      const value = JSON.stringify({ value: `Request ${i}` });
      rows.answers.push({ trail_id: id, step_id: stepId, element_id: template.elementId, element_type: 'TextArea', value, value_bytes: Buffer.byteLength(value), warnings: null, answered_by: leaver.principalId, answered_at: iso(tick()) });
    }
    const left = leaves ? iso(tick()) : null;
    rows.steps.push({
      id: stepId,
      trail_id: id,
      seq,
      bit_id: template.bitId,
      bit_title: template.title,
      bit_snapshot: NULL_JSON,
      snapshot_hash: template.hash,
      snapshot_step_id: null,
      entered_at: entered,
      left_at: left,
      left_by: leaves ? leaver.principalId : null,
      left_by_connection_id: null,
      bit_revision: template.revision,
      human_required: template.humanRequired ? 1 : 0,
      overdue_reminded: 0,
    });
    if (seq === at && status === 'cancelled') rows.events.push({ trail_id: id, step_id: stepId, kind: 'cancel', reason: 'Withdrawn', principal_id: leaver.principalId, at: left as string });
  }
  if (status === 'waiting_for_person') rows.events.push({ trail_id: id, step_id: stepIds[at - 1] as string, kind: 'transfer', reason: 'Needs a person', principal_id: starter.principalId, at: iso(tick()) });
  const open = status === 'running' || status === 'waiting_for_person';
  const trail: TrailTable = {
    id,
    account_id: team.owner.accountId,
    scope_id: null,
    flow_id: flow.flowId,
    title: `Request ${i}`,
    context: JSON.stringify({ requester: `r${i}@example.com` }),
    status,
    current_step_id: open ? (stepIds[at - 1] as string) : null,
    started_by: starter.principalId,
    created_at: iso(created),
    updated_at: iso(clock),
    flow_version: null,
    needs_person: needsPerson(status, (flow.steps[at - 1] as StepTemplate).humanRequired),
    step_assignee: null,
    step_group: null,
    step_due_at: null,
    step_reminded: 0,
    due_at: null,
    due_reminded: 0,
  };
  rows.trails.push(trail);
  for (const principal of who) rows.participants.push({ trail_id: id, principal_id: principal, updated_at: trail.updated_at });
  const takers = [...who];
  for (let e = 0; e < EVENTS_PER_TRAIL; e++) {
    const principalId = e === 0 ? starter.principalId : (takers[Math.floor(random() * takers.length)] as string);
    rows.changes.push({
      id: randomUUID(),
      account_id: team.owner.accountId,
      occurred_at: iso(created + Math.floor(((clock - created) * e) / EVENTS_PER_TRAIL)),
      scope_id: null,
      principal_id: principalId,
      principal_kind: team.agents.some((a) => a.principalId === principalId) ? 'agent' : 'person',
      token_id: null,
      client_name: null,
      operation: CHANGE_OPERATIONS[e] as string,
      resource_type: 'trail',
      resource_id: id,
      revision: e + 1,
      summary: JSON.stringify({ trail_title: trail.title }),
      prev_hash: null,
      hash: 'bench',
    });
  }
}

/** Loads trails number `from` to `to` - 1 (the same trails for the same numbers on every run). */
export async function loadTrails(store: Store, team: Team, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += BATCH) {
    const random = prng(start + 1);
    const rows: Rows = { trails: [], steps: [], answers: [], events: [], participants: [], changes: [] };
    for (let i = start; i < Math.min(to, start + BATCH); i++) trailRows(team, i, random, rows);
    await store.transaction(async (tx) => {
      await tx.insertInto('trails').values(rows.trails).execute();
      await tx.insertInto('trail_steps').values(rows.steps).execute();
      if (rows.answers.length > 0) await tx.insertInto('trail_answers').values(rows.answers).execute();
      if (rows.events.length > 0) await tx.insertInto('trail_events').values(rows.events).execute();
      await tx.insertInto('trail_participants').values(rows.participants).execute();
      // After the account's last event, in the order made (the bench reads them; nothing verifies the chain).
      const head = await tx.selectFrom('events').select((eb) => eb.fn.max('seq').as('seq')).where('account_id', '=', team.owner.accountId).executeTakeFirst();
      const first = Number(head?.seq ?? 0) + 1;
      const events = rows.changes.map((change, n) => ({ ...change, seq: first + n }));
      // Chunks of 2,000 rows: PostgreSQL takes at most 65,535 parameters a statement.
      for (let n = 0; n < events.length; n += 2000) await tx.insertInto('events').values(events.slice(n, n + 2000)).execute();
      for (const trail of rows.trails) await shiftInboxCounts(tx, null, trail);
    });
  }
}

/** The planner's statistics as a running server would have them after the load: autovacuum's on PostgreSQL, the store's own PRAGMA optimize on SQLite. */
export async function settle(store: Store): Promise<void> {
  if (store.dialect.engine === 'postgres') await store.dialect.withMigrationKysely(store.db, (db) => sql`VACUUM ANALYZE`.execute(db));
  else await sql`PRAGMA optimize = 0x10002`.execute(store.db);
}
