/**
 * The mailer's and the scheduler's edges (issue 27), on the real store of each engine with a real SMTP server:
 * retries that are spent leave a message `failed` with its error; a server's permanent refusal of a recipient
 * fails it at once; a message whose mailer died (an expired lease) is taken over and sent once; a person whose
 * address was removed is not mailed. And schedulers racing on the same overdue trails record each reminder once.
 * The notices come from real writes through a served process whose own mailer is off (no WAYMARK_SMTP_URL): the
 * mailer under test here is the only one sending.
 */
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mailConfigFromEnv, schedulerConfigFromEnv } from '../src/config.js';
import { Mailer } from '../src/services/notifications/mailer.js';
import { OverdueScheduler } from '../src/services/notifications/scheduler.js';
import { ENGINES, type TestStore } from './engines.js';
import { startServedStore, type ServedStore } from './serve.js';
import { SmtpReceiver } from './smtp-receiver.js';
import { fromNow, teamOf, until, type Person, type StartedTrail, type Team } from './team-fixtures.js';

const base = new URL('http://waymark.test:3000');

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function mailer(ts: TestStore, smtpUrl: string, retryScale = 1): Mailer {
  const config = mailConfigFromEnv({ WAYMARK_SMTP_URL: smtpUrl, WAYMARK_MAIL_RETRY_SCALE: String(retryScale), WAYMARK_MAIL_POLL_MS: '20' });
  return new Mailer(ts.store, { ...config!, publicBase: base });
}

describe('mail settings', () => {
  it('off without WAYMARK_SMTP_URL; a wrong value or number is refused with the variable named', () => {
    expect(mailConfigFromEnv({})).toBeNull();
    expect(mailConfigFromEnv({ WAYMARK_SMTP_URL: 'smtps://u:p@mail.example.com' })).toEqual({ smtpUrl: 'smtps://u:p@mail.example.com', from: 'Waymark <waymark@localhost>', pollMs: 2000, leaseMs: 120_000, retryScale: 1, concurrency: 4 });
    expect(() => mailConfigFromEnv({ WAYMARK_SMTP_URL: 'http://mail.example.com' })).toThrow('WAYMARK_SMTP_URL must start with smtp:// or smtps:// (got http://)');
    expect(() => mailConfigFromEnv({ WAYMARK_SMTP_URL: 'mail.example.com' })).toThrow('WAYMARK_SMTP_URL must be a URL such as smtp://mail.example.com:587 or smtps://user:password@mail.example.com');
    expect(() => mailConfigFromEnv({ WAYMARK_SMTP_URL: 'smtp://h', WAYMARK_MAIL_POLL_MS: '0' })).toThrow('WAYMARK_MAIL_POLL_MS must be a positive whole number (got 0)');
    expect(schedulerConfigFromEnv({})).toEqual({ pollMs: 30_000 });
    expect(() => schedulerConfigFromEnv({ WAYMARK_SCHEDULER_POLL_MS: 'soon' })).toThrow('WAYMARK_SCHEDULER_POLL_MS must be a positive whole number (got soon)');
  });
});

describe.each(ENGINES)('the mailer on %s', (engine) => {
  let served: ServedStore | undefined;
  let ts: TestStore | undefined;
  let smtp: SmtpReceiver | undefined;
  let running: Mailer | undefined;
  let team: Team;
  let ann: Person;
  let trail: StartedTrail;

  const start = async () => {
    served = await startServedStore(engine);
    ts = served.ts;
    team = teamOf(served);
    ann = await team.addPerson('Ann Lee', 'ann@example.com');
    const flowId = await team.makeFlow('Onboarding', [{ title: 'Laptop' }]);
    trail = await team.startTrail(team.admin.token, flowId, { title: 'Onboarding' });
  };
  // The owner hands the step to the person (transfer_step): one 'assigned' notice for them.
  const tell = async (to: Person = ann) => team.handTo(team.admin.token, trail.trailId, `person:${to.email ?? to.id}`);
  const row = async () => ts!.store.db.selectFrom('notifications').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await smtp?.stop();
    await served?.close();
    served = undefined;
  });

  it('retries a send that fails, then gives up with the error kept', { timeout: 30_000 }, async () => {
    await start();
    await tell();
    // A day of retries at 1/100000: under a second.
    running = mailer(ts!, `smtp://127.0.0.1:${await closedPort()}`, 0.00001);
    running.start();
    await until('the message to fail', async () => (await row()).email_state === 'failed');
    const failed = await row();
    expect(Number(failed.email_attempts)).toBe(10);
    expect(failed.email_next_at).toBeNull();
    expect(failed.email_lease_id).toBeNull();
    expect(failed.email_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
  });

  it('fails at once a recipient the server refuses for good, and does not mail a person whose address was removed', { timeout: 30_000 }, async () => {
    await start();
    smtp = await new SmtpReceiver().start();
    smtp.refused.add('ann@example.com');
    await tell();
    running = mailer(ts!, smtp.url);
    running.start();
    await until('the refusal', async () => (await row()).email_state === 'failed');
    expect(await row()).toMatchObject({ email_state: 'failed', email_next_at: null });
    expect(Number((await row()).email_attempts)).toBe(1);
    expect((await row()).email_error).toContain('550');

    const carl = await team.addPerson('Carl Diaz', 'carl@example.com');
    await running.stop();
    await tell(carl);
    // An Admin clears Carl's address before the mail goes out.
    await team.setEmail(carl.id, null);
    running.start();
    await until('the message without an address', async () => (await row()).email_state === 'failed');
    expect((await row()).email_error).toBe('The person has no email address any more; an Admin can set one.');
    expect(smtp.messages).toHaveLength(0);
  });

  it('takes over a message whose lease ran out, and leaves one under a live lease', { timeout: 30_000 }, async () => {
    await start();
    smtp = await new SmtpReceiver().start();
    await tell();
    await tell();
    const [dead, live] = await ts!.store.db.selectFrom('notifications').select('id').orderBy('id').execute();
    // Direct setup: a mailer that died holding a lease, and one sending now, are states of other processes' mailers
    // that no write of a person makes.
    const past = new Date(Date.now() - 1000).toISOString();
    const future = new Date(Date.now() + 60_000).toISOString();
    // A mailer that died mid-send: its lease (and so its due time) is over. Another is sending now.
    await ts!.store.db.updateTable('notifications').set({ email_lease_id: 'gone', email_leased_until: past, email_next_at: past }).where('id', '=', dead!.id).execute();
    await ts!.store.db.updateTable('notifications').set({ email_lease_id: 'alive', email_leased_until: future, email_next_at: future }).where('id', '=', live!.id).execute();
    running = mailer(ts!, smtp.url);
    running.start();
    await until('the abandoned message', () => smtp!.messages.length === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.of(Number(dead!.id))).toHaveLength(1);
    expect(smtp.of(Number(live!.id))).toHaveLength(0);
    const rows = await ts!.store.db.selectFrom('notifications').select(['id', 'email_state', 'email_lease_id']).orderBy('id').execute();
    expect(rows.map((r) => [r.email_state, r.email_lease_id])).toEqual([
      ['sent', null],
      ['pending', 'alive'],
    ]);
  });
});

describe.each(ENGINES)('schedulers racing on %s', (engine) => {
  let served: ServedStore | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it('record each reminder once however many find it in the same round', { timeout: 60_000 }, async () => {
    // The server's own scheduler looks once at start, then not for an hour: the racers here are the only ones.
    served = await startServedStore(engine, { WAYMARK_SCHEDULER_POLL_MS: '3600000' });
    const { ts } = served;
    const team = teamOf(served);
    const owner = team.admin.token;
    const ann = await team.addPerson('Ann Lee', 'ann@example.com');
    // Ann does the step; the trails are due in a few seconds (the step's hour is cut to the trail's due time).
    const flowId = await team.makeFlow('Onboarding', [{ title: 'Prepare the laptop', assignee: 'person:ann@example.com', expected_duration: 'PT1H' }]);
    const due = fromNow(4000);
    const trails = await Promise.all(Array.from({ length: 20 }, (_, k) => team.startTrail(owner, flowId, { title: `Trail ${k}`, due })));
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(due) - Date.now() + 50)));
    const racers = [0, 1, 2, 3].map(() => new OverdueScheduler(ts.store, { pollMs: 3_600_000 }));
    await Promise.all(racers.map((s) => s.tick()));
    await Promise.all(racers.map((s) => s.tick()));
    const rows = await ts.store.db.selectFrom('notifications').select(['trail_id', 'kind', 'principal_id']).execute();
    const keys = rows.map((r) => `${r.trail_id} ${r.kind} ${r.principal_id}`).sort();
    const ownerId = team.admin.id;
    expect(keys).toEqual(trails.flatMap((t) => [`${t.trailId} assigned ${ann.id}`, `${t.trailId} step_overdue ${ann.id}`, `${t.trailId} trail_overdue ${ann.id}`, `${t.trailId} trail_overdue ${ownerId}`]).sort());
  });
});
