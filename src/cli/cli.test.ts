/**
 * The waymark command as scripts use it (CONTRACT.md, "How it is started"): `node bin/waymark.js` in a
 * child process on each engine, with what it prints on stdout and its exit code (0 done, 1 failed, 2 usage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
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

// Usage errors come before the store is opened; failures need one. Once, on the embedded store.
describe('the waymark command, exit codes', () => {
  let ts: TestStore;
  const run = (...args: string[]) => waymark(ts.env, ...args);
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
    const usageRuns = await Promise.all(usage.map((args) => run(...args)));
    usageRuns.forEach((result, i) => {
      expect([result.code, result.stdout], usage[i].join(' ')).toEqual([2, '']);
      expect(result.stderr, usage[i].join(' ')).toContain('Usage: waymark <command>');
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    const failures: string[][] = [
      ['scope', 'create', '--account', missing, 'Team'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'read'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'fly'],
      ['token', 'create', '--account', missing, '--permission', 'view', '--capabilities', 'read', '--expires-in', 'soon'],
    ];
    const failureRuns = await Promise.all(failures.map((args) => run(...args)));
    failureRuns.forEach((result, i) => {
      expect([result.code, result.stdout], failures[i].join(' ')).toEqual([1, '']);
      expect(result.stderr, failures[i].join(' ')).toMatch(/^waymark: \S/);
    });
  });
});
