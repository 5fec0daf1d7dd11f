/**
 * A team's world for the mail and scheduler tests (issue 27), made through a real `waymark serve`: people with
 * email addresses, a flow, trails started over REST, and the two things that are stand-ins until the assignment
 * work lands on main, each in one function here so the lead can switch them over:
 * - `assignStep` records the 'assigned' notice with notify() in a transaction of the test's store, as entering an
 *   assigned step will; switch it to a bit with `assignee` (or transfer_step naming a person).
 * - `makeOverdue` writes step_assignee/step_due_at/due_at with a direct UPDATE (test setup on the real store, not a
 *   mock); switch it to start_trail's `due_date_time_utc` and a bit's `expected_duration`.
 */
import { notify, type NoticeSummary } from '../src/services/notifications/record.js';
import type { Services } from '../src/services/index.js';
import type { Store } from '../src/store/store.js';
import type { NotificationKind } from '../src/store/enums.js';
import { RemoteClient } from './faults/client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export interface Person {
  id: string;
  name: string;
  email: string | null;
  token: string;
}

/** A person of the account who may run trails, with an email address unless `email` is null. */
export async function addPerson(services: Services, accountId: string, name: string, email: string | null): Promise<Person> {
  const issued = await services.auth.createToken({ accountId, permission: 'edit', capabilities: ['waymark.read', 'waymark.run'], kind: 'person', name });
  if (email !== null) await services.store.db.updateTable('principals').set({ email }).where('id', '=', issued.principalId).execute();
  return { id: issued.principalId, name, email, token: issued.token };
}

async function ok<T>(client: RemoteClient, tool: string, args: Record<string, unknown>): Promise<T> {
  const envelope = await client.call<T>(tool, args);
  if (!envelope.success) throw new Error(`${tool}: ${JSON.stringify(envelope.error)}`);
  return envelope.data as T;
}

/** An approved, active flow of one step, made through MCP on the served process. */
export async function makeFlow(mcpUrl: string, ownerToken: string, title: string, stepTitle: string): Promise<string> {
  const client = await RemoteClient.connect(mcpUrl, ownerToken);
  try {
    const { bit_id } = await ok<{ bit_id: string }>(client, 'add_bit', { bit_title: stepTitle, bit_body: 'Do this, then say so.' });
    const { flow_id } = await ok<{ flow_id: string }>(client, 'create_flow', { flow_title: title, start_bit_id: bit_id });
    await ok(client, 'review_flow', { flow_id, review_status: 'approved' });
    await ok(client, 'update_flow', { flow_id, is_active: true });
    return flow_id;
  } finally {
    await client.close();
  }
}

export interface StartedTrail {
  trailId: string;
  stepId: string;
}

/** Starts a trail of the flow over REST as the token's principal; answers it and its current step. */
export async function startTrail(origin: string, token: string, flowId: string, title?: string): Promise<StartedTrail> {
  const res = await fetch(`${origin}/api/v1/trails`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ flow_id: flowId, ...(title ? { trail_title: title } : {}) }) });
  const json = (await res.json()) as { data: { trail_id: string; current_step: { step_id: string } | null }; error?: unknown };
  if (!res.ok || !json.data.current_step) throw new Error(`start trail: ${res.status} ${JSON.stringify(json.error)}`);
  return { trailId: json.data.trail_id, stepId: json.data.current_step.step_id };
}

/** Records a notice of `kind` about the trail's step for `to`, as the write that causes it will (see the file's comment). */
export async function assignStep(store: Store, accountId: string, trail: { trailId: string | null; stepId: string | null }, to: string[], kind: NotificationKind, actorId: string, summary: NoticeSummary): Promise<string[]> {
  return store.transaction((tx) => notify(tx, accountId, { principalIds: to }, { kind, trailId: trail.trailId, stepId: trail.stepId, actorId, summary }));
}

/**
 * Gives the trail's current step to `assignee` (or offers it to `group`) and sets the step's and the trail's due
 * times (see the file's comment), in one update of the trail: a scheduler running meanwhile sees all or nothing.
 */
export async function makeOverdue(store: Store, trail: StartedTrail, due: { assignee?: string | null; group?: string | null; stepDueAt?: string | null; dueAt?: string | null }): Promise<void> {
  await store.db
    .updateTable('trail_steps')
    .set({ assignee_principal: due.assignee ?? null, assignee_group: due.group ?? null, due_at: due.stepDueAt ?? null })
    .where('id', '=', trail.stepId)
    .execute();
  await store.db
    .updateTable('trails')
    .set({ step_assignee: due.assignee ?? null, step_group: due.group ?? null, step_due_at: due.stepDueAt ?? null, due_at: due.dueAt ?? null })
    .where('id', '=', trail.trailId)
    .execute();
}
