/**
 * Overdue reminders from several processes (issue 27): two `waymark serve` processes on one store, each running
 * the scheduler on a short poll, and an SMTP server. Every step and trail whose due time has passed gets exactly
 * one reminder per person (step_overdue to whoever the step waits for: its person, else its group's members, else
 * the starter; trail_overdue to the starter and whoever has the step) and one mail each; a step due later and a
 * cancelled trail get none; and nothing more comes in the rounds after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { startServe, stopServe, type Served } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { addPerson, makeFlow, makeOverdue, startTrail, until, type StartedTrail } from './team-fixtures.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POLL_MS = 100;

describe.each(ENGINES)('overdue reminders from two waymark serve processes on one %s store', (engine) => {
  let ts: TestStore | undefined;
  let smtp: SmtpReceiver | undefined;
  const served: Served[] = [];

  afterEach(async () => {
    await Promise.all(served.splice(0).map((s) => stopServe(s)));
    await smtp?.stop();
    await ts?.close();
  });

  it('records each reminder once and mails it once, whichever process finds it first', { timeout: 60_000 }, async () => {
    ts = await createTestStore(engine);
    const services = createServices(ts.store);
    const first = await services.auth.init();
    const owner = first.token?.token as string;
    const ownerId = first.token?.principalId as string;
    await ts.store.db.updateTable('principals').set({ email: 'owner@example.com' }).where('id', '=', ownerId).execute();
    const ann = await addPerson(services, first.accountId, 'Ann Lee', 'ann@example.com');
    const carl = await addPerson(services, first.accountId, 'Carl Diaz', 'carl@example.com');
    // A group of both (test setup: groups are managed elsewhere in issue 27).
    const now = new Date().toISOString();
    await ts.store.db.insertInto('groups').values({ id: 'grp_desk', account_id: first.accountId, scope_id: null, name: 'IT desk', description: null, created_at: now, updated_at: now }).execute();
    await ts.store.db.insertInto('group_members').values([ann.id, carl.id].map((principal_id) => ({ group_id: 'grp_desk', principal_id, account_id: first.accountId, added_at: now }))).execute();

    smtp = await new SmtpReceiver().start();
    const env = { ...ts.env, WAYMARK_SCHEDULER_POLL_MS: String(POLL_MS), WAYMARK_SMTP_URL: smtp.url, WAYMARK_MAIL_POLL_MS: '50' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [one, two] = served as [Served, Served];
    const origin = (s: Served) => new URL(s.url).origin;
    const flowId = await makeFlow(one.url, owner, 'Onboarding', 'Prepare the laptop');
    const start = async (title: string) => startTrail(origin(served[title.length % 2] as Served), owner, flowId, title);

    const past = new Date(Date.now() - 60_000).toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const annSteps = await Promise.all([0, 1, 2, 3, 4].map((k) => start(`Ann's step ${k}`)));
    const carlBoth = await Promise.all([0, 1, 2].map((k) => start(`Carl's trail ${k}`)));
    const groupStep = await start('The desk step');
    const nobodyStep = await start('Nobody named');
    const notYet = await start('Due later');
    const cancelled = await start('Cancelled');
    const res = await fetch(`${origin(two)}/api/v1/trails/${cancelled.trailId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'not needed' }) });
    expect(res.status).toBe(200);

    // Every due time set at once, so both schedulers find the same trails in the same rounds.
    await Promise.all([
      ...annSteps.map((t) => makeOverdue(ts!.store, t, { assignee: ann.id, stepDueAt: past })),
      ...carlBoth.map((t) => makeOverdue(ts!.store, t, { assignee: carl.id, stepDueAt: past, dueAt: past })),
      makeOverdue(ts.store, groupStep, { group: 'grp_desk', stepDueAt: past }),
      makeOverdue(ts.store, nobodyStep, { stepDueAt: past }),
      makeOverdue(ts.store, notYet, { assignee: ann.id, stepDueAt: later, dueAt: later }),
      makeOverdue(ts.store, cancelled, { assignee: ann.id, stepDueAt: past, dueAt: past }),
    ]);

    const key = (trail: StartedTrail, kind: string, principal: string) => `${trail.trailId} ${kind} ${principal}`;
    const expected = [
      ...annSteps.map((t) => key(t, 'step_overdue', ann.id)),
      ...carlBoth.flatMap((t) => [key(t, 'step_overdue', carl.id), key(t, 'trail_overdue', carl.id), key(t, 'trail_overdue', ownerId)]),
      key(groupStep, 'step_overdue', ann.id),
      key(groupStep, 'step_overdue', carl.id),
      key(nobodyStep, 'step_overdue', ownerId),
    ].sort();
    const recorded = async () => (await ts!.store.db.selectFrom('notifications').select(['id', 'trail_id', 'step_id', 'kind', 'principal_id', 'actor_id', 'email_state']).execute()).map((r) => ({ ...r, id: Number(r.id) }));
    await until('every reminder', async () => (await recorded()).length >= expected.length);
    // Several more rounds of both processes: nothing more.
    await sleep(POLL_MS * 6);
    const rows = await recorded();
    expect(rows.map((r) => `${r.trail_id} ${r.kind} ${r.principal_id}`).sort()).toEqual(expected);
    expect(rows.every((r) => r.actor_id === null)).toBe(true);
    // Each reminder names the step that was due, and that step is marked reminded.
    const byTrail = new Map([...annSteps, ...carlBoth, groupStep, nobodyStep].map((t) => [t.trailId, t.stepId]));
    for (const r of rows) expect(r.step_id).toBe(byTrail.get(r.trail_id as string));
    const steps = await ts.store.db.selectFrom('trail_steps').select(['id', 'overdue_reminded']).where('id', 'in', [...byTrail.values(), notYet.stepId, cancelled.stepId]).execute();
    expect(Object.fromEntries(steps.map((s) => [s.id, s.overdue_reminded]))).toEqual(Object.fromEntries([...[...byTrail.values()].map((id) => [id, 1]), [notYet.stepId, 0], [cancelled.stepId, 0]]));
    const flags = await ts.store.db.selectFrom('trails').select(['id', 'step_reminded', 'due_reminded']).where('id', 'in', [carlBoth[0]!.trailId, notYet.trailId, cancelled.trailId]).execute();
    expect(Object.fromEntries(flags.map((f) => [f.id, [f.step_reminded, f.due_reminded]]))).toEqual({ [carlBoth[0]!.trailId]: [1, 1], [notYet.trailId]: [0, 0], [cancelled.trailId]: [0, 0] });

    // One mail per reminder, each once, in a person's words.
    expect(rows.every((r) => r.email_state !== 'none')).toBe(true);
    await until('every reminder mailed', () => smtp!.messages.length >= rows.length);
    await sleep(300);
    expect(smtp.messages).toHaveLength(rows.length);
    for (const r of rows) expect(smtp.of(r.id)).toHaveLength(1);
    const carlTrail = rows.find((r) => r.trail_id === carlBoth[0]!.trailId && r.kind === 'trail_overdue' && r.principal_id === ownerId);
    const mail = smtp.of(carlTrail!.id)[0];
    expect(mail?.to).toEqual(['owner@example.com']);
    expect(mail?.subject).toBe("Overdue: the trail Carl's trail 0");
    expect(mail?.text).toContain(`The trail "Carl's trail 0" (flow "Onboarding") was due `);
    // The link is to the address of whichever process sent it.
    const links = served.map((s) => `and is not finished yet. It is at the step "Prepare the laptop".\n\nOpen the trail: ${origin(s)}/app/#/trails/${carlBoth[0]!.trailId}\n`);
    expect(links.some((link) => mail?.text.includes(link))).toBe(true);
  });
});
