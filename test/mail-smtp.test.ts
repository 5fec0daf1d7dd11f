/**
 * Mail through a real SMTP server (issue 27): `waymark serve` with WAYMARK_SMTP_URL pointing at an smtp-server
 * started here. A person with an email whose group is given a step (a trail enters a bit offered to it), who is
 * handed a step (transfer_step), or who is mentioned (comment_on_step) gets exactly one message with a link to the
 * step and no credential; one without an email, and the person who caused it, get none. The SMTP server stops,
 * more notices are recorded by writes that neither wait nor fail (trails started, a step handed on, the scheduler's
 * overdue reminders), it starts again on the same port: every message arrives exactly once, none lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES } from './engines.js';
import { startServe, startServedStore, stopServe, type ServedStore } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { teamOf, until } from './team-fixtures.js';

describe('waymark serve and mail settings', () => {
  it('says mail is off without WAYMARK_SMTP_URL, and refuses to start with a wrong one, naming it', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-mail-'));
    try {
      const off = await startServe({ WAYMARK_DATA_DIR: dir, WAYMARK_SMTP_URL: '' });
      await stopServe(off);
      expect(off.out()).toContain('\nMail: off (set WAYMARK_SMTP_URL to tell people by email too)\n');
      await expect(startServe({ WAYMARK_DATA_DIR: dir, WAYMARK_SMTP_URL: 'http://mail.example.com' })).rejects.toThrow('serve exited with 2: waymark: WAYMARK_SMTP_URL must start with smtp:// or smtps:// (got http://)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(ENGINES)('mail from waymark serve on %s', (engine) => {
  let served: ServedStore | undefined;
  let smtp: SmtpReceiver | undefined;

  afterEach(async () => {
    await served?.close();
    await smtp?.stop();
    served = undefined;
  });

  it('sends each notice to a person with an email once, with the step link and no credential; a dead SMTP server delays mail and loses none', { timeout: 60_000 }, async () => {
    smtp = await new SmtpReceiver().start();
    served = await startServedStore(engine, {
      WAYMARK_SMTP_URL: smtp.url,
      WAYMARK_MAIL_FROM: 'Waymark Test <noreply@waymark.test>',
      WAYMARK_MAIL_POLL_MS: '50',
      WAYMARK_MAIL_RETRY_SCALE: '0.0003',
      WAYMARK_SCHEDULER_POLL_MS: '100',
    });
    const { ts, origin } = served;
    const team = teamOf(served);
    expect(served.serve.out()).toContain(`Mail: on, through smtp://127.0.0.1:${smtp.port} from Waymark Test <noreply@waymark.test>`);
    const owner = team.admin.token;
    const ann = await team.addPerson('Ann Lee', 'ann@example.com');
    const bob = await team.addPerson('Bob Stone', null);
    // The owner is in the group too: the one who starts the trail is never told of their own start.
    await team.makeGroup('Laptop desk', [ann.email!, bob.id, team.admin.id]);
    const flowId = await team.makeFlow('Onboarding', [{ title: 'Prepare the laptop', assignee: 'group:Laptop desk' }]);
    const trail = await team.startTrail(owner, flowId, { title: 'Onboarding Carla', due: '2031-12-01T09:00:00.000Z' });

    // The trail enters the step offered to the group: Ann (an email) gets one mail; Bob (none) and the owner who
    // started it get none. The notice names no actor: the mail reads the owner's name ("owner") from the store.
    const rows = async () => ts.store.db.selectFrom('notifications').select(['id', 'principal_id', 'kind', 'email_state', 'email_attempts', 'email_error', 'email_lease_id']).orderBy('id').execute();
    expect((await rows()).map((r) => [r.principal_id, r.kind]).sort()).toEqual([[ann.id, 'assigned'], [bob.id, 'assigned']].sort());
    await until('the first mail', () => smtp!.messages.length === 1);
    const [assigned] = smtp.messages;
    expect(assigned?.to).toEqual(['ann@example.com']);
    expect(assigned?.from).toBe('noreply@waymark.test');
    expect(assigned?.headers.get('from')).toBe('Waymark Test <noreply@waymark.test>');
    expect(assigned?.headers.get('to')).toBe('Ann Lee <ann@example.com>');
    expect(assigned?.subject).toBe('Your group Laptop desk has a step to do: Prepare the laptop in Onboarding Carla');
    const stepLink = `${origin}/app/#/trails/${trail.trailId}/step`;
    expect(assigned?.text).toContain(
      `owner gave your group Laptop desk the step "Prepare the laptop" of the trail "Onboarding Carla" (flow "Onboarding").\n\nWhoever of the group takes it first does it; the others see who has it.\n\nIt is due 1 Dec 2031, 09:00 UTC.\n\nOpen the step: ${stepLink}\n`,
    );
    expect(assigned?.html).toContain(`<a href="${stepLink}">Open the step</a>`);
    // No credential of any kind: no token of anyone, no sign-in link, no token parameter.
    for (const secret of [owner, ann.token, bob.token]) expect(assigned?.raw).not.toContain(secret);
    expect(assigned?.raw).not.toMatch(/signin|token=|wmk_/i);
    await until('the assigned row to be sent', async () => (await rows()).every((r) => r.email_state !== 'pending'));
    const state = Object.fromEntries((await rows()).map((r) => [r.principal_id, { email_state: r.email_state, email_attempts: Number(r.email_attempts), email_lease_id: r.email_lease_id }]));
    expect(state).toEqual({ [ann.id]: { email_state: 'sent', email_attempts: 1, email_lease_id: null }, [bob.id]: { email_state: 'none', email_attempts: 0, email_lease_id: null } });

    // Bob mentions Ann in a comment on the step: one more mail.
    expect((await team.comment(bob.token, trail.trailId, '@Ann Lee which model?')).mentions).toEqual([{ principal_id: ann.id, name: 'Ann Lee' }]);
    await until('the mention', () => smtp!.messages.length === 2);
    expect(smtp.messages[1]?.subject).toBe('Bob Stone mentioned you on Prepare the laptop in Onboarding Carla');
    expect(smtp.messages[1]?.text).toContain(`"@Ann Lee which model?"\n\nOpen the step: ${stepLink}\n`);

    // The SMTP server goes down. Writes meanwhile are accepted at once; their mail waits and is retried: two trails
    // enter a step offered to Ann's and Carl's group (4 notices), the owner hands the second to Carl (1), and the
    // scheduler reminds whoever each step waits for once its 3 seconds are up (2 + 1).
    await smtp.stop();
    const carl = await team.addPerson('Carl Diaz', 'carl@example.com');
    await team.makeGroup('Night desk', [ann.id, carl.email!]);
    const badges = await team.makeFlow('Offboarding', [{ title: 'Return the badge', assignee: 'group:Night desk', expected_duration: 'PT3S' }]);
    const started = Date.now();
    const first = await team.startTrail(owner, badges, { title: 'Trail 0' });
    const second = await team.startTrail(owner, badges, { title: 'Trail 1' });
    await team.handTo(owner, second.trailId, 'person:carl@example.com', 'Carl has the keys.');
    expect(Date.now() - started).toBeLessThan(3000);
    const pending = async () => (await rows()).filter((r) => r.email_state === 'pending');
    await until('the overdue reminders', async () => (await pending()).length === 8);
    const noticesOf = async (trailId: string) =>
      (await ts.store.db.selectFrom('notifications').select(['principal_id', 'kind']).where('trail_id', '=', trailId).execute()).map((r) => `${r.kind} ${r.principal_id}`).sort();
    expect(await noticesOf(first.trailId)).toEqual([`assigned ${ann.id}`, `assigned ${carl.id}`, `step_overdue ${ann.id}`, `step_overdue ${carl.id}`].sort());
    expect(await noticesOf(second.trailId)).toEqual([`assigned ${ann.id}`, `assigned ${carl.id}`, `assigned ${carl.id}`, `step_overdue ${carl.id}`].sort());
    await until('each waiting mail to have failed twice', async () => (await pending()).every((r) => Number(r.email_attempts) >= 2 && r.email_error !== null));
    expect((await pending())[0]?.email_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    expect(smtp.messages).toHaveLength(2);

    // It comes back on the same port: every message arrives, each exactly once.
    await smtp.start();
    await until('every waiting mail to arrive', async () => (await pending()).length === 0, 30_000);
    const all = await rows();
    const mailed = all.filter((r) => r.email_state !== 'none');
    expect(mailed.every((r) => r.email_state === 'sent')).toBe(true);
    expect(mailed).toHaveLength(10);
    expect(smtp.messages).toHaveLength(mailed.length);
    for (const row of mailed) expect(smtp.of(Number(row.id))).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to[0] === 'carl@example.com').map((m) => m.subject).sort()).toEqual([
      'Overdue: Return the badge in Trail 0',
      'Overdue: Return the badge in Trail 1',
      'You have a step to do: Return the badge in Trail 1',
      'Your group Night desk has a step to do: Return the badge in Trail 0',
      'Your group Night desk has a step to do: Return the badge in Trail 1',
    ]);
    const handed = smtp.messages.find((m) => m.subject === 'You have a step to do: Return the badge in Trail 1');
    expect(handed?.text).toContain(`owner gave you the step "Return the badge" of the trail "Trail 1" (flow "Offboarding").\n\nIt is due `);
    expect(handed?.text).toContain(`Open the step: ${origin}/app/#/trails/${second.trailId}/step\n`);
  });
});
