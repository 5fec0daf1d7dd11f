/**
 * The waymark command as scripts use it (CONTRACT.md, "How it is started"): on each engine, what it prints on
 * stdout and its exit code (0 done, 1 failed, 2 usage). The commands run in this process (`main` with its
 * output captured); one smoke test runs `node bin/waymark.js` in a child process, as a shell would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnWaymark, waymark, waymarkEach } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { createServices, type Services } from '../services/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(ENGINES)('the waymark command on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  const run = (...args: string[]) => waymark(ts.env, ...args);
  beforeAll(async () => {
    ts = await createTestStore(engine, { migrate: false });
    services = createServices(ts.store);
  });
  afterAll(async () => ts.close());

  it('migrate, then init once: one token with every capability; a second init prints nothing new unless --new-token', async () => {
    const migrated = await run('migrate');
    expect([migrated.code, migrated.stdout]).toEqual([0, expect.stringMatching(/^Applied: /)]);
    expect((await run('migrate')).stdout).toBe('The schema is up to date.\n');
    const first = await run('init');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^waymark_[A-Za-z0-9_-]{43}\n$/);
    const owner = await services.auth.authenticate(first.stdout.trim());
    expect(owner).toMatchObject({ permission: 'admin', capabilities: ['waymark.author', 'waymark.read', 'waymark.run'], scopeId: null });
    const again = await run('init');
    expect([again.code, again.stdout]).toEqual([0, '']);
    const another = await run('init', '--new-token');
    expect(another.stdout).toMatch(/^waymark_\S+\n$/);
    expect(another.stdout).not.toBe(first.stdout);
    // Another token of the same owner, not a second owner.
    expect((await services.auth.authenticate(another.stdout.trim()))?.principalId).toBe(owner!.principalId);
  });

  it('creates accounts, scopes and tokens, printing only the new id or token', async () => {
    const account = (await run('account', 'create', 'Acme')).stdout.trim();
    expect(account).toMatch(UUID);
    const scope = (await run('scope', 'create', '--account', account, 'Team')).stdout.trim();
    expect(scope).toMatch(UUID);
    // A name the account has (case aside) is refused, as the app's New scope refuses it.
    const twice = await run('scope', 'create', '--account', account, 'TEAM');
    expect([twice.code, twice.stdout]).toEqual([1, '']);
    expect(twice.stderr).toContain('your account already has a scope named "TEAM": choose another name');
    const issued = await run('token', 'create', '--account', account, '--permission', 'edit', '--capabilities', 'author,waymark.read', '--scope', scope, '--kind', 'person', '--expires-in', '30d');
    expect(issued.code).toBe(0);
    expect(issued.stdout).toMatch(/^waymark_\S+\n$/);
    const actor = await services.auth.authenticate(issued.stdout.trim());
    expect(actor).toMatchObject({ accountId: account, permission: 'edit', kind: 'person', scopeId: scope, capabilities: ['waymark.author', 'waymark.read'] });
    const days = (Date.parse(actor!.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    // --principal reuses a principal; the principal's id is on stderr, stdout keeps only the token.
    const principal = /principal (\S+)/.exec(issued.stderr)?.[1];
    expect(principal).toEqual(actor!.principalId);
    const reused = await run('token', 'create', '--account', account, '--permission', 'edit', '--capabilities', 'run', '--principal', principal!);
    expect(reused.code).toBe(0);
    expect(await services.auth.authenticate(reused.stdout.trim())).toMatchObject({ principalId: principal, kind: 'person', scopeId: scope, capabilities: ['waymark.run'] });
    // Asking a reused principal's token for another permission, kind or scope is refused, not ignored.
    for (const extra of [['--permission', 'admin'], ['--permission', 'edit', '--kind', 'agent']]) {
      const args = extra.includes('--permission') ? extra : ['--permission', 'edit', ...extra];
      const refused = await run('token', 'create', '--account', account, '--capabilities', 'read', '--principal', principal!, ...args);
      expect([refused.code, refused.stdout], extra.join(' ')).toEqual([1, '']);
      expect(refused.stderr).toContain(`principal ${principal} has`);
    }
  });
});

describe.each(ENGINES)('signin-link create and session revoke on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
  });
  afterAll(async () => ts.close());

  it('prints a one-time sign-in URL on the public URL; the link opens one session; revoke ends them and prints how many', async () => {
    const account = await services.auth.createAccount('Acme');
    const person = await services.auth.createToken({ accountId: account, permission: 'edit', capabilities: ['waymark.run'], kind: 'person' });
    const env = { ...ts.env, WAYMARK_PUBLIC_URL: 'https://app.example.com/base' };
    const created = await waymark(env, 'signin-link', 'create', '--principal', person.principalId, '--expires-in', '2h', '--capabilities', 'run');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^https:\/\/app\.example\.com\/base\/app\/signin\?token=waymark_link_[A-Za-z0-9_-]{43}\n$/);
    const token = new URL(created.stdout.trim()).searchParams.get('token')!;
    const link = await ts.store.db.selectFrom('signin_links').selectAll().where('principal_id', '=', person.principalId).executeTakeFirstOrThrow();
    expect(JSON.parse(link.capabilities)).toEqual(['waymark.run']);
    const hours = (Date.parse(link.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.99);
    expect(hours).toBeLessThanOrEqual(2);
    const first = await services.signin.redeem(token);
    expect(first.ok).toBe(true);
    expect(await services.signin.redeem(token)).toEqual({ ok: false, reason: 'used' });
    const session = first.ok ? first.session : '';
    expect(await services.signin.actorOf(session)).toMatchObject({ principalId: person.principalId, kind: 'person', permission: 'edit', capabilities: ['waymark.run'] });

    // Without WAYMARK_PUBLIC_URL, the URL is where serve listens by default (WAYMARK_HOST/WAYMARK_PORT respected); 15 minutes.
    const local = await waymark({ ...ts.env, WAYMARK_PUBLIC_URL: '', WAYMARK_PORT: '4100' }, 'signin-link', 'create', '--principal', person.principalId);
    expect(local.stdout).toMatch(/^http:\/\/127\.0\.0\.1:4100\/app\/signin\?token=waymark_link_\S+\n$/);
    const second = await services.signin.redeem(new URL(local.stdout.trim()).searchParams.get('token')!);
    expect(second.ok).toBe(true);

    const revoked = await waymark(ts.env, 'session', 'revoke', '--principal', person.principalId);
    expect([revoked.code, revoked.stdout]).toEqual([0, '2\n']);
    expect(await services.signin.actorOf(session)).toBeNull();
    expect(await services.signin.revokeSessions(person.principalId)).toBe(0);

    // An agent gets no link; an unknown principal is a failure; a missing --principal is a usage error.
    const agent = await services.auth.createToken({ accountId: account, permission: 'view', capabilities: ['waymark.run'] });
    const failures = [['signin-link', 'create', '--principal', agent.principalId], ['session', 'revoke', '--principal', 'nobody']];
    const usages = [['signin-link', 'create'], ['session', 'list']];
    const runs = await waymarkEach(ts.env, [...failures, ...usages]);
    runs.forEach((result, i) => {
      const args = [...failures, ...usages][i];
      expect([result.code, result.stdout], args.join(' ')).toEqual([i < failures.length ? 1 : 2, '']);
      expect(result.stderr, args.join(' ')).toMatch(/^waymark: \S/);
    });
  });

  it('refuses a link or a token beyond the maximum an Admin set for the person, saying so (issue 28)', async () => {
    const account = await services.auth.createAccount('Bounded');
    const owner = await services.auth.createToken({ accountId: account, permission: 'admin', capabilities: ['waymark.author'], kind: 'person', name: 'Owner' });
    const person = await services.auth.createToken({ accountId: account, permission: 'edit', capabilities: ['waymark.run'], kind: 'person', name: 'Rae' });
    await services.people.update((await services.auth.authenticate(owner.token))!, { principal_id: person.principalId, max_capabilities: ['waymark.run'] });
    const [link, token] = await waymarkEach(ts.env, [
      ['signin-link', 'create', '--principal', person.principalId, '--capabilities', 'read,run'],
      ['token', 'create', '--account', account, '--principal', person.principalId, '--permission', 'edit', '--capabilities', 'author'],
    ]);
    for (const result of [link, token]) {
      expect([result.code, result.stdout]).toEqual([1, '']);
      expect(result.stderr).toContain(`Rae (${person.principalId}) may be given at most waymark.run;`);
      expect(result.stderr).toContain('beyond the maximum an Admin set');
    }
    // Within it, both are made; a link without --capabilities carries the default cut to the maximum.
    const within = await waymark(ts.env, 'signin-link', 'create', '--principal', person.principalId);
    expect(within.code).toBe(0);
    const redeemed = await services.signin.redeem(new URL(within.stdout.trim()).searchParams.get('token')!);
    expect(redeemed.ok && (await services.signin.actorOf(redeemed.session))?.capabilities).toEqual(['waymark.run']);
  });
});

// Usage errors come before the store is opened; failures need one. Once, on the embedded store.
describe('the waymark command, exit codes', () => {
  let ts: TestStore;
  beforeAll(async () => {
    ts = await createTestStore('sqlite');
  });
  afterAll(async () => ts.close());

  it('answers usage errors with 2 and the usage, failures with 1 and the reason', async () => {
    const usage: string[][] = [
      [],
      ['frobnicate'],
      ['account', 'create'],
      ['account', 'create', ' '],
      ['account', 'delete', 'x'],
      ['scope', 'create', 'Team'],
      ['token', 'create', '--account', 'x', '--capabilities', 'read'],
      ['token', 'create', '--account', 'x', '--permission', 'owner', '--capabilities', 'read'],
      ['token', 'create', '--account', 'x', '--permission', 'view', '--capabilities', 'read', '--kind', 'robot'],
      ['serve', '--port', 'many'],
    ];
    const usageRuns = await waymarkEach(ts.env, usage);
    usageRuns.forEach((result, i) => {
      expect([result.code, result.stdout], usage[i].join(' ')).toEqual([2, '']);
      expect(result.stderr, usage[i].join(' ')).toContain('Usage: waymark <command>');
    });
    // A quota that is not a number is refused in words before anything starts (quotas.ts).
    const badQuota = await waymark({ ...ts.env, WAYMARK_QUOTA_WINDOW_SECONDS: 'abc' }, 'serve', '--port', '0');
    expect([badQuota.code, badQuota.stdout]).toEqual([2, '']);
    expect(badQuota.stderr).toMatch(/^waymark: WAYMARK_QUOTA_WINDOW_SECONDS must be a whole number of at least 1 \(got abc\)/);
    const missing = '00000000-0000-4000-8000-000000000000';
    const failures: string[][] = [
      ['scope', 'create', '--account', missing, 'Team'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'read'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'fly'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'read', '--expires-in', 'soon'],
    ];
    const failureRuns = await waymarkEach(ts.env, failures);
    failureRuns.forEach((result, i) => {
      expect([result.code, result.stdout], failures[i].join(' ')).toEqual([1, '']);
      expect(result.stderr, failures[i].join(' ')).toMatch(/^waymark: \S/);
    });
  });

  it('bin/waymark.js in a child process: the launcher runs the command on the store and exits with its code', { timeout: 120_000 }, async () => {
    const [created, usage] = await Promise.all([spawnWaymark(ts.env, 'account', 'create', 'Spawned'), spawnWaymark(ts.env, 'frobnicate')]);
    expect([created.code, created.stdout]).toEqual([0, expect.stringMatching(/^[0-9a-f-]{36}\n$/)]);
    expect(await createServices(ts.store).auth.accountName(created.stdout.trim())).toBe('Spawned');
    expect([usage.code, usage.stdout]).toEqual([2, '']);
    expect(usage.stderr).toContain('Usage: waymark <command>');
  });
});
