/**
 * Mail through a real SMTP server (issue 27): `waymark serve` with WAYMARK_SMTP_URL pointing at an smtp-server
 * started here. A person with an email who is given a step, or mentioned, gets exactly one message with a link to
 * the step and no credential; one without an email, and the person who caused it, get none. The SMTP server stops,
 * more notices are recorded (their writes do not wait or fail), it starts again on the same port: every message
 * arrives exactly once, none lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINES } from './engines.js';
import { startServe, startServedStore, stopServe, type ServedStore } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { addPerson, assignStep, makeFlow, startTrail, until } from './team-fixtures.js';

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
    served = await startServedStore(engine, { WAYMARK_SMTP_URL: smtp.url, WAYMARK_MAIL_FROM: 'Waymark Test <noreply@waymark.test>', WAYMARK_MAIL_POLL_MS: '50', WAYMARK_MAIL_RETRY_SCALE: '0.0003' });
    const { ts, services, first, origin } = served;
    expect(served.serve.out()).toContain(`Mail: on, through smtp://127.0.0.1:${smtp.port} from Waymark Test <noreply@waymark.test>`);
    const owner = first.token?.token as string;
    const ownerId = first.token?.principalId as string;
    const ann = await addPerson(services, first.accountId, 'Ann Lee', 'ann@example.com');
    const bob = await addPerson(services, first.accountId, 'Bob Stone', null);
    const flowId = await makeFlow(served.serve.url, owner, 'Onboarding', 'Prepare the laptop');
    const trail = await startTrail(origin, owner, flowId, 'Onboarding Carla');
    const summary = { trail_title: 'Onboarding Carla', flow_title: 'Onboarding', step_title: 'Prepare the laptop', due: '2026-12-01T09:00:00.000Z' };

    // Given the step: Ann (an email) gets one mail; Bob (none) and the owner who gave it get none. The summary names
    // no actor: the mail reads the owner's name ("owner") from the store.
    expect((await assignStep(ts.store, first.accountId, trail, [ann.id, bob.id, ownerId], 'assigned', ownerId, summary)).sort()).toEqual([ann.id, bob.id].sort());
    const rows = async () => ts.store.db.selectFrom('notifications').select(['id', 'principal_id', 'kind', 'email_state', 'email_attempts', 'email_error', 'email_lease_id']).orderBy('id').execute();
    await until('the first mail', () => smtp!.messages.length === 1);
    const [assigned] = smtp.messages;
    expect(assigned?.to).toEqual(['ann@example.com']);
    expect(assigned?.from).toBe('noreply@waymark.test');
    expect(assigned?.headers.get('from')).toBe('Waymark Test <noreply@waymark.test>');
    expect(assigned?.headers.get('to')).toBe('Ann Lee <ann@example.com>');
    expect(assigned?.subject).toBe('You have a step to do: Prepare the laptop in Onboarding Carla');
    const stepLink = `${origin}/app/#/trails/${trail.trailId}/step`;
    expect(assigned?.text).toContain(`owner gave you the step "Prepare the laptop" of the trail "Onboarding Carla" (flow "Onboarding").\n\nIt is due 1 Dec 2026, 09:00 UTC.\n\nOpen the step: ${stepLink}\n`);
    expect(assigned?.html).toContain(`<a href="${stepLink}">Open the step</a>`);
    // No credential of any kind: no token of anyone, no sign-in link, no token parameter.
    for (const secret of [owner, ann.token, bob.token]) expect(assigned?.raw).not.toContain(secret);
    expect(assigned?.raw).not.toMatch(/signin|token=|wmk_/i);
    await until('the assigned row to be sent', async () => (await rows()).every((r) => r.email_state !== 'pending'));
    const state = Object.fromEntries((await rows()).map((r) => [r.principal_id, { email_state: r.email_state, email_attempts: Number(r.email_attempts), email_lease_id: r.email_lease_id }]));
    expect(state).toEqual({ [ann.id]: { email_state: 'sent', email_attempts: 1, email_lease_id: null }, [bob.id]: { email_state: 'none', email_attempts: 0, email_lease_id: null } });

    // Mentioned by Bob: one more mail.
    await assignStep(ts.store, first.accountId, trail, [ann.id], 'mentioned', bob.id, { trail_title: 'Onboarding Carla', step_title: 'Prepare the laptop', actor_name: 'Bob Stone', excerpt: '@Ann Lee which model?' });
    await until('the mention', () => smtp!.messages.length === 2);
    expect(smtp.messages[1]?.subject).toBe('Bob Stone mentioned you on Prepare the laptop in Onboarding Carla');
    expect(smtp.messages[1]?.text).toContain(`"@Ann Lee which model?"\n\nOpen the step: ${stepLink}\n`);

    // The SMTP server goes down. Notices recorded meanwhile are accepted at once; their mail waits and is retried.
    await smtp.stop();
    const carl = await addPerson(services, first.accountId, 'Carl Diaz', 'carl@example.com');
    const started = Date.now();
    for (let k = 0; k < 4; k++) await assignStep(ts.store, first.accountId, trail, [ann.id, carl.id], k % 2 === 0 ? 'assigned' : 'step_overdue', ownerId, { ...summary, step_title: `Step ${k}` });
    expect(Date.now() - started).toBeLessThan(5000);
    const pending = async () => (await rows()).filter((r) => r.email_state === 'pending');
    expect(await pending()).toHaveLength(8);
    await until('each waiting mail to have failed twice', async () => (await pending()).every((r) => Number(r.email_attempts) >= 2 && r.email_error !== null));
    expect((await pending())[0]?.email_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    expect(smtp.messages).toHaveLength(2);

    // It comes back on the same port: every message arrives, each exactly once.
    await smtp.start();
    await until('every waiting mail to arrive', async () => (await pending()).length === 0, 30_000);
    const all = await rows();
    const mailed = all.filter((r) => r.email_state !== 'none');
    expect(mailed.every((r) => r.email_state === 'sent')).toBe(true);
    expect(smtp.messages).toHaveLength(mailed.length);
    for (const row of mailed) expect(smtp.of(Number(row.id))).toHaveLength(1);
    expect(smtp.messages.filter((m) => m.to[0] === 'carl@example.com').map((m) => m.subject).sort()).toEqual([
      'Overdue: Step 1 in Onboarding Carla',
      'Overdue: Step 3 in Onboarding Carla',
      'You have a step to do: Step 0 in Onboarding Carla',
      'You have a step to do: Step 2 in Onboarding Carla',
    ]);
  });
});
