/**
 * Token lifecycle from the command line (issue 16, finding 10): `token list` shows an account's tokens without
 * their secrets, `token revoke` refuses one from then on, and `init --expires-in` gives the owner's token an end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark, waymarkEach } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { hashToken } from '../services/auth/auth.service.js';
import { createServices, type Services } from '../services/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe.each(ENGINES)('token list, token revoke and init --expires-in on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  const run = (...args: string[]) => waymark(ts.env, ...args);
  beforeAll(async () => {
    ts = await createTestStore(engine, { migrate: false });
    services = createServices(ts.store);
  });
  afterAll(async () => ts.close());

  it('init --expires-in: the owner token ends then; a bad duration is refused before anything is made', async () => {
    const refused = await run('init', '--expires-in', 'soon');
    expect([refused.code, refused.stdout]).toEqual([1, '']);
    expect(refused.stderr).toMatch(/^waymark: A duration is a positive number/);
    await ts.store.migrate();
    expect(await ts.store.db.selectFrom('accounts').select('id').execute()).toEqual([]);

    const first = await run('init', '--expires-in', '2h');
    expect(first.code).toBe(0);
    const owner = await services.auth.authenticate(first.stdout.trim());
    const hours = (Date.parse(owner!.expiresAt!) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
  });

  it('token list shows every token of the account without its secret; token revoke refuses one from then on', async () => {
    const { accountId } = await services.auth.init();
    const issued = await run('token', 'create', '--account', accountId, '--permission', 'view', '--capabilities', 'read');
    const agentToken = issued.stdout.trim();
    const agent = /principal (\S+)/.exec(issued.stderr)![1];
    // A second owner token, made after the agent's so the list's order (oldest first) is known.
    const ownerToken = (await run('init', '--new-token')).stdout.trim();
    const owner = (await services.auth.authenticate(ownerToken))!;

    const listed = await run('token', 'list', '--account', accountId);
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(header).toEqual(['id', 'principal', 'kind', 'capabilities', 'created', 'expires', 'revoked']);
    expect(rows).toEqual([
      [expect.stringMatching(UUID), owner.principalId, 'person', 'waymark.author,waymark.read,waymark.run', expect.stringMatching(ISO), expect.stringMatching(ISO), '-'],
      [expect.stringMatching(UUID), agent, 'agent', 'waymark.read', expect.stringMatching(ISO), '-', '-'],
      [expect.stringMatching(UUID), owner.principalId, 'person', 'waymark.author,waymark.read,waymark.run', expect.stringMatching(ISO), '-', '-'],
    ]);
    for (const secret of [agentToken, ownerToken, hashToken(agentToken), hashToken(ownerToken)]) expect(listed.stdout).not.toContain(secret);

    const agentTokenId = rows[1][0];
    const revoked = await run('token', 'revoke', agentTokenId);
    expect(revoked).toEqual({ code: 0, stdout: '', stderr: `Revoked token ${agentTokenId}.\n` });
    expect(await services.auth.authenticate(agentToken)).toBeNull();
    expect(await services.auth.authenticate(ownerToken)).not.toBeNull();
    const after = (await run('token', 'list', '--account', accountId)).stdout.trimEnd().split('\n')[2].split('\t');
    expect(after[6]).toMatch(ISO);

    // Again: nothing changes, and it says when.
    expect(await run('token', 'revoke', agentTokenId)).toEqual({ code: 0, stdout: '', stderr: `Token ${agentTokenId} was already revoked at ${after[6]}.\n` });
    const [unknown, noAccount, ...usage] = await waymarkEach(ts.env, [
      ['token', 'revoke', '00000000-0000-4000-8000-000000000000'],
      ['token', 'list', '--account', '00000000-0000-4000-8000-000000000000'],
      ['token', 'revoke'],
      ['token', 'list'],
      ['token', 'revoke', 'a', 'b'],
      ['token', 'list', '--account', accountId, 'extra'],
    ]);
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toMatch(/^waymark: No token 00000000-0000-4000-8000-000000000000; waymark token list/);
    expect([noAccount.code, noAccount.stdout]).toEqual([1, '']);
    for (const result of usage) expect([result.code, result.stdout, result.stderr]).toEqual([2, '', expect.stringContaining('Usage: waymark <command>')]);
  });
});
