/**
 * Overdue reminders from several processes (issue 27): two `waymark serve` processes on one store, each running
 * the scheduler on a short poll, and an SMTP server. The due times come from the writes a team makes: a bit's
 * expected_duration and start_trail's due_date_time_utc. Every step and trail whose due time has passed gets
 * exactly one reminder per person (step_overdue to whoever the step waits for: its person, else its group's
 * members, else the starter; trail_overdue to the starter and whoever has the step) and one mail each; a step due
 * later and a cancelled trail get none; and nothing more comes in the rounds after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { startServe, stopServe, type Served } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { fromNow, teamOf, until, type StartedTrail } from './team-fixtures.js';

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
    smtp = await new SmtpReceiver().start();
    const env = { ...ts.env, WAYMARK_SCHEDULER_POLL_MS: String(POLL_MS), WAYMARK_SMTP_URL: smtp.url, WAYMARK_MAIL_POLL_MS: '50' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [one, two] = served as [Served, Served];
    const origin = (s: Served) => new URL(s.url).origin;
    const team = teamOf({ services, first, origin: origin(one) });
    const owner = team.admin.token;
    const ownerId = team.admin.id;
    await team.setEmail(ownerId, 'owner@example.com');
    const ann = await team.addPerson('Ann Lee', 'ann@example.com');
    const carl = await team.addPerson('Carl Diaz', 'carl@example.com');
    await team.makeGroup('IT desk', [ann.email!, carl.email!]);

    // Four flows of one step each: who does it and how long it should take, as their bits say.
    const annFlow = await team.makeFlow('Laptops', [{ title: 'Set up the laptop', assignee: 'person:ann@example.com', expected_duration: 'PT3S' }]);
    const carlFlow = await team.makeFlow('Onboarding', [{ title: 'Prepare the laptop', assignee: 'person:carl@example.com', expected_duration: 'PT1H' }]);
    const deskFlow = await team.makeFlow('Badges', [{ title: 'Print the badge', assignee: 'group:IT desk', expected_duration: 'PT3S' }]);
    const openFlow = await team.makeFlow('Anything', [{ title: 'Do it', expected_duration: 'PT3S' }]);
    // Trails started through either process: the steps of Ann, the desk and nobody are due 3 s after they are
    // entered; Carl's hour is cut to his trails' due time, 5 s from now, so each is overdue as a step and a trail.
    const due = fromNow(5000);
    const start = (flowId: string, title: string, trailDue?: string) => team.startTrail(owner, flowId, { title, due: trailDue, origin: origin(served[title.length % 2] as Served) });
    const [annSteps, carlBoth, [groupStep, nobodyStep, notYet, cancelled]] = await Promise.all([
      Promise.all([0, 1, 2, 3, 4].map((k) => start(annFlow, `Ann's step ${k}`))),
      Promise.all([0, 1, 2].map((k) => start(carlFlow, `Carl's trail ${k}`, due))),
      Promise.all([start(deskFlow, 'The desk step'), start(openFlow, 'Nobody named'), start(carlFlow, 'Due later', fromNow(3_600_000)), start(carlFlow, 'Cancelled', due)]),
    ]);
    await team.api(owner, 'POST', `/trails/${cancelled!.trailId}/cancel`, { reason: 'not needed' }, origin(two));

    const key = (trail: StartedTrail, kind: string, principal: string) => `${trail.trailId} ${kind} ${principal}`;
    // Entering a step that names someone tells them (the owner who started each trail is told nothing of it).
    const assigned = [
      ...annSteps.map((t) => key(t, 'assigned', ann.id)),
      ...[...carlBoth, notYet!, cancelled!].map((t) => key(t, 'assigned', carl.id)),
      key(groupStep!, 'assigned', ann.id),
      key(groupStep!, 'assigned', carl.id),
    ];
    const reminders = [
      ...annSteps.map((t) => key(t, 'step_overdue', ann.id)),
      ...carlBoth.flatMap((t) => [key(t, 'step_overdue', carl.id), key(t, 'trail_overdue', carl.id), key(t, 'trail_overdue', ownerId)]),
      key(groupStep!, 'step_overdue', ann.id),
      key(groupStep!, 'step_overdue', carl.id),
      key(nobodyStep!, 'step_overdue', ownerId),
    ];
    const expected = [...assigned, ...reminders].sort();
    const recorded = async () => (await ts!.store.db.selectFrom('notifications').select(['id', 'trail_id', 'step_id', 'kind', 'principal_id', 'actor_id', 'email_state']).execute()).map((r) => ({ ...r, id: Number(r.id) }));
    await until('every reminder', async () => (await recorded()).length >= expected.length);
    // Several more rounds of both processes: nothing more.
    await sleep(POLL_MS * 6);
    const rows = await recorded();
    expect(rows.map((r) => `${r.trail_id} ${r.kind} ${r.principal_id}`).sort()).toEqual(expected);
    // A reminder has no actor; an assignment's is the owner who started the trail.
    expect(rows.every((r) => r.actor_id === (r.kind === 'assigned' ? ownerId : null))).toBe(true);
    // Each notice names the trail's step, and each step that was due is marked reminded.
    const byTrail = new Map([...annSteps, ...carlBoth, groupStep!, nobodyStep!, notYet!, cancelled!].map((t) => [t.trailId, t.stepId]));
    for (const r of rows) expect(r.step_id).toBe(byTrail.get(r.trail_id as string));
    const steps = await ts.store.db.selectFrom('trail_steps').select(['id', 'overdue_reminded']).where('id', 'in', [...byTrail.values()]).execute();
    expect(Object.fromEntries(steps.map((s) => [s.id, Number(s.overdue_reminded)]))).toEqual(Object.fromEntries([...byTrail.values()].map((id) => [id, id === notYet!.stepId || id === cancelled!.stepId ? 0 : 1])));
    const flags = await ts.store.db.selectFrom('trails').select(['id', 'step_reminded', 'due_reminded']).where('id', 'in', [carlBoth[0]!.trailId, notYet!.trailId, cancelled!.trailId]).execute();
    expect(Object.fromEntries(flags.map((f) => [f.id, [Number(f.step_reminded), Number(f.due_reminded)]]))).toEqual({ [carlBoth[0]!.trailId]: [1, 1], [notYet!.trailId]: [0, 0], [cancelled!.trailId]: [0, 0] });

    // One mail per notice, each once, in a person's words.
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
