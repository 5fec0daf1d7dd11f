/**
 * Issue 27's story end to end, through the real server: two `waymark serve` processes on one store, an SMTP server,
 * an agent on the MCP SDK client and people in the app's sessions (REST with their cookies).
 *
 * An Admin makes the group "IT desk" of Ann and Bob and sets everyone's email. A flow of three steps: a welcome the
 * agent does, the laptop offered to the IT desk (it should take 2 seconds), and the manager's sign-off, done by
 * whoever the trail's context names. The agent starts a trail due in a few seconds, naming Mia as the manager by
 * email, and does the welcome; the laptop step tells the desk, and the agent is refused it (STEP_ASSIGNED). The step
 * is overdue before anyone takes it: the desk is reminded once. Ann claims it; Bob, whose session is on the other
 * process, is told live and sees that Ann has it, is refused in a person's words, and mentions Ann in a comment.
 * Ann does the step: Mia's sign-off is hers and she is told; the trail's due time passes: Mia is reminded of the
 * step and the trail, once each, whichever process finds them. Every notice is one mail, with a link and no
 * credential; nothing is mailed twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { RemoteClient } from './faults/client.js';
import { openLive, type LiveReader } from './live-client.js';
import { startServe, stopServe, type Served } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { fromNow, teamOf, until } from './team-fixtures.js';
import { signedIn, type Browser } from './web-client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const POLL_MS = 100;

interface StepAssignee {
  principal_id: string | null;
  name: string | null;
  group_id: string | null;
  group_name: string | null;
  claimed: boolean;
}

describe.each(ENGINES)('a team runs a process on %s', (engine) => {
  let ts: TestStore | undefined;
  let smtp: SmtpReceiver | undefined;
  let agent: RemoteClient | undefined;
  let live: LiveReader | undefined;
  const served: Served[] = [];

  afterEach(async () => {
    live?.close();
    await agent?.close();
    await Promise.all(served.splice(0).map((s) => stopServe(s)));
    await smtp?.stop();
    await ts?.close();
  });

  it('offers a step to a group, lets one claim it, tells people in the app and by mail, and reminds once when it is late', { timeout: 90_000 }, async () => {
    ts = await createTestStore(engine);
    const services = createServices(ts.store);
    const first = await services.auth.init();
    smtp = await new SmtpReceiver().start();
    const env = { ...ts.env, WAYMARK_SCHEDULER_POLL_MS: String(POLL_MS), WAYMARK_SMTP_URL: smtp.url, WAYMARK_MAIL_POLL_MS: '50', WAYMARK_LIVE_POLL_MS: '100' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [one, two] = served.map((s) => new URL(s.url).origin) as [string, string];
    const team = teamOf({ services, first, origin: one });

    // The Admin's setup, over REST: people's emails and the group.
    const ann = await team.addPerson('Ann Lee', 'ann@example.com');
    const bob = await team.addPerson('Bob Stone', 'bob@example.com');
    const mia = await team.addPerson('Mia Chen', 'mia@example.com');
    const desk = await team.makeGroup('IT desk', ['ann@example.com', 'bob@example.com']);
    expect(await team.api(team.admin.token, 'GET', `/groups/${desk}`)).toMatchObject({ name: 'IT desk', members: [{ principal_id: ann.id, name: 'Ann Lee' }, { principal_id: bob.id, name: 'Bob Stone' }] });
    const flowId = await team.makeFlow(
      'Onboarding',
      [
        { title: 'Send the welcome pack' },
        { title: 'Prepare the laptop', assignee: 'group:IT desk', expected_duration: 'PT2S' },
        { title: 'Manager signs off', assignee: 'context:manager' },
      ],
      { trail_context_schema: { type: 'object', properties: { manager: { type: 'string', format: 'email', title: 'Manager' } }, required: ['manager'] } },
    );

    // People's sessions in the app: Ann's on process one, Bob's on process two, where his app listens live.
    const annApp = await signedIn(services, one, ann.id);
    const bobApp = await signedIn(services, two, bob.id);
    live = await openLive(`${two}/api/v1/live`, { cookie: cookieOf(bobApp) });
    expect((await live.next('notifications')).data).toEqual({ unread_count: 0, latest_id: null });

    // The agent starts the trail (due in 15 s) and does the welcome: the laptop step is the IT desk's now.
    const agentToken = await services.auth.createToken({ accountId: team.accountId, permission: 'edit', capabilities: ['waymark.read', 'waymark.run'], kind: 'agent', name: 'Onboarding agent' });
    agent = await RemoteClient.connect(`${one}/mcp`, agentToken.token);
    const call = async <T>(tool: string, args: Record<string, unknown>) => {
      const envelope = await agent!.call<T>(tool, args);
      if (!envelope.success) throw new Error(`${tool}: ${JSON.stringify(envelope.error)}`);
      return envelope.data as T;
    };
    // Its manual teaches who does a step, by when, claiming and comments.
    const manual = (await call<{ trails: string[] }>('describe_platform', {})).trails.join('\n');
    for (const taught of ['assignee: "starter", "person:<id or email>", "group:<id or name>" or "context:<trail_context field>"', 'expected_duration, ISO 8601 in weeks, days, hours, minutes or seconds', 'STEP_ASSIGNED', 'claims its step', 'due_date_time_utc', 'comment_on_step', '@name or @email']) {
      expect(manual).toContain(taught);
    }
    // Far enough ahead that Ann does the laptop before it, on a loaded machine too.
    const due = fromNow(15_000);
    const started = await call<{ trail_id: string; current_step: { bit_title: string } }>('start_trail', { flow_id: flowId, trail_title: 'Onboarding Carla', trail_context: { manager: 'MIA@example.com' }, due_date_time_utc: due });
    const trailId = started.trail_id;
    expect(started.current_step.bit_title).toBe('Send the welcome pack');
    const moved = await call<{ current_step: { bit_title: string; step_id: string; assignee: StepAssignee; due_date_time_utc: string; waiting_for: string } }>('advance_trail', { trail_id: trailId });
    const laptop = moved.current_step;
    expect(laptop).toMatchObject({ bit_title: 'Prepare the laptop', assignee: { principal_id: null, group_id: desk, group_name: 'IT desk', claimed: false } });
    expect(laptop.waiting_for).toBe(`Waits for group IT desk, due ${laptop.due_date_time_utc}; only they (or an Admin, by reassigning it) may answer and advance it.`);

    // The agent may not do the desk's step: its own error code, with who it waits for.
    const refused = await agent.call('advance_trail', { trail_id: trailId });
    expect(refused.error).toMatchObject({ code: 'STEP_ASSIGNED', details: { trail_id: trailId, step_id: laptop.step_id, assignee: { group_name: 'IT desk' } } });
    expect(refused.error?.message).toBe('Step "Prepare the laptop" is assigned to group IT desk: an agent must not advance it, and it needs no transfer_step. Tell the user it waits for group IT desk; get_trail shows when it has moved on.');

    // The desk is told (Bob live on process two), and reminded once when the step's 2 seconds are up.
    const noticeKeys = async () => (await ts!.store.db.selectFrom('notifications').select(['kind', 'principal_id']).where('trail_id', '=', trailId).execute()).map((r) => `${r.kind} ${r.principal_id}`).sort();
    expect(await noticeKeys()).toEqual([`assigned ${ann.id}`, `assigned ${bob.id}`].sort());
    expect((await live.next('notifications')).data).toMatchObject({ unread_count: 1 });
    await until('the desk to be reminded', async () => (await noticeKeys()).length === 4);
    expect(await noticeKeys()).toEqual([`assigned ${ann.id}`, `assigned ${bob.id}`, `step_overdue ${ann.id}`, `step_overdue ${bob.id}`].sort());
    expect((await live.next('notifications')).data).toMatchObject({ unread_count: 2 });
    const bobsList = await bobApp.ok<{ notifications: Array<{ kind: string; summary: string }> }>(bobApp.get('/notifications'));
    expect(bobsList.notifications.map((n) => [n.kind, n.summary])).toEqual([
      ['step_overdue', 'Overdue: Prepare the laptop in Onboarding Carla.'],
      ['assigned', 'Your group IT desk has a step to do: Prepare the laptop in Onboarding Carla (from Onboarding agent).'],
    ]);

    // Ann claims it through process one; Bob's session on process two hears the inbox change, sees who has it,
    // and is refused in a person's words.
    const heard = live.events.length;
    const claimed = await annApp.ok<{ step: { assignee: StepAssignee } }>(annApp.post(`/trails/${trailId}/step/claim`, {}));
    expect(claimed.step.assignee).toEqual({ principal_id: ann.id, name: 'Ann Lee', group_id: desk, group_name: 'IT desk', claimed: true });
    await until('Bob to hear of the claim', () => live!.events.slice(heard).some((e) => e.event === 'inbox'));
    const bobsStep = await bobApp.ok<{ step: { assignee: StepAssignee; waiting_for: string }; may: Record<string, boolean>; trail: { context_labels: Record<string, string> } }>(bobApp.get(`/trails/${trailId}/step`));
    expect(bobsStep.step.assignee).toEqual(claimed.step.assignee);
    expect(bobsStep.step.waiting_for).toMatch(/^Waits for Ann Lee \(from group IT desk\), overdue since /);
    expect(bobsStep.may).toMatchObject({ answer: false, advance: false, claim: false, release: false });
    expect(bobsStep.trail.context_labels).toEqual({ manager: 'Manager' });
    const bobsInbox = await bobApp.ok<{ items: Array<{ trail_id: string; assignee: StepAssignee; overdue: boolean }>; counts: { groups: number } }>(bobApp.get('/inbox?view=groups'));
    expect(bobsInbox.counts.groups).toBe(1);
    expect(bobsInbox.items).toEqual([expect.objectContaining({ trail_id: trailId, assignee: claimed.step.assignee, overdue: true })]);
    for (const attempt of [bobApp.post(`/trails/${trailId}/step/advance`, {}), bobApp.post(`/trails/${trailId}/step/claim`, {})]) {
      const { status, body } = await attempt;
      expect(status).toBe(409);
      expect(body.error).toMatchObject({ code: 'STEP_ASSIGNED', message: 'Ann Lee is doing step "Prepare the laptop"; ask them or an Admin to hand it to you.' });
    }

    // Bob asks Ann in a comment: she is told; the agent reads the comment with the step.
    expect(await bobApp.ok(bobApp.post(`/trails/${trailId}/comments`, { text: '@Ann Lee the 14-inch one, please.' }))).toMatchObject({ mentions: [{ principal_id: ann.id, name: 'Ann Lee' }] });
    const read = await call<{ current_step: { waiting_for: string; comments: { total: number; latest: Array<{ text: string; author: { name: string } }> } } }>('get_trail', { trail_id: trailId });
    expect(read.current_step.waiting_for).toMatch(/^Waits for Ann Lee \(from group IT desk\), overdue since /);
    expect(read.current_step.comments).toMatchObject({ total: 1, latest: [{ text: '@Ann Lee the 14-inch one, please.', author: { name: 'Bob Stone', kind: 'person' }, mentions: [{ principal_id: ann.id, name: 'Ann Lee' }] }] });

    // Ann does the laptop: the sign-off is Mia's (trail_context.manager), and she is told.
    const next = await annApp.ok<{ step: { bit_title: string; assignee: StepAssignee; due_date_time_utc: string } }>(annApp.post(`/trails/${trailId}/step/advance`, {}));
    expect(next.step).toMatchObject({ bit_title: 'Manager signs off', assignee: { principal_id: mia.id, name: 'Mia Chen', group_id: null }, due_date_time_utc: due });

    // The trail's due time passes: Mia is reminded of her step and of the trail, once each, whichever of the two
    // processes finds them first; the agent that started it has no inbox to be told in.
    const all = [
      `assigned ${ann.id}`,
      `assigned ${bob.id}`,
      `step_overdue ${ann.id}`,
      `step_overdue ${bob.id}`,
      `mentioned ${ann.id}`,
      `assigned ${mia.id}`,
      `step_overdue ${mia.id}`,
      `trail_overdue ${mia.id}`,
    ].sort();
    await until('Mia to be reminded', async () => (await noticeKeys()).length >= all.length, 30_000);
    await sleep(POLL_MS * 6);
    expect(await noticeKeys()).toEqual(all);

    // One mail per notice, each once, to the person's address, linking to the step (the trail, for the trail's
    // reminder) on either process, and carrying no credential.
    await until('every mail', () => smtp!.messages.length >= all.length);
    await sleep(300);
    const rows = await ts.store.db.selectFrom('notifications').select(['id', 'kind', 'principal_id', 'email_state']).where('trail_id', '=', trailId).execute();
    expect(rows.every((r) => r.email_state === 'sent')).toBe(true);
    expect(smtp.messages).toHaveLength(all.length);
    const address = new Map([ann, bob, mia].map((p) => [p.id, p.email]));
    const secrets = [team.admin.token, ann.token, bob.token, mia.token, agentToken.token, ...annApp.cookies.values(), ...bobApp.cookies.values()];
    for (const r of rows) {
      const [mail] = smtp.of(Number(r.id));
      expect(smtp.of(Number(r.id))).toHaveLength(1);
      expect(mail?.to).toEqual([address.get(r.principal_id)]);
      // A step's mail links to the step while it is the trail's current one when the mail is written, else to the
      // trail (mail-message.ts noticeLink): the mailer may write it after Ann moved the trail on.
      const links = r.kind === 'trail_overdue' ? [`/app/#/trails/${trailId}\n`] : [`/app/#/trails/${trailId}/step\n`, `/app/#/trails/${trailId}\n`];
      expect([one, two].some((origin) => links.some((link) => mail?.text.includes(`: ${origin}${link}`))), mail?.text).toBe(true);
      for (const secret of secrets) expect(mail?.raw).not.toContain(secret);
      expect(mail?.raw).not.toMatch(/signin|token=|wmk_/i);
    }
    expect(smtp.messages.map((m) => `${m.to[0]} ${m.subject}`).sort()).toEqual(
      [
        'ann@example.com Your group IT desk has a step to do: Prepare the laptop in Onboarding Carla',
        'bob@example.com Your group IT desk has a step to do: Prepare the laptop in Onboarding Carla',
        'ann@example.com Overdue: Prepare the laptop in Onboarding Carla',
        'bob@example.com Overdue: Prepare the laptop in Onboarding Carla',
        'ann@example.com Bob Stone mentioned you on Prepare the laptop in Onboarding Carla',
        'mia@example.com You have a step to do: Manager signs off in Onboarding Carla',
        'mia@example.com Overdue: Manager signs off in Onboarding Carla',
        'mia@example.com Overdue: the trail Onboarding Carla',
      ].sort(),
    );
    const toMia = smtp.messages.find((m) => m.subject === 'You have a step to do: Manager signs off in Onboarding Carla');
    expect(toMia?.text).toContain('Ann Lee gave you the step "Manager signs off" of the trail "Onboarding Carla" (flow "Onboarding").');
  });
});

function cookieOf(browser: Browser): string {
  return [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
