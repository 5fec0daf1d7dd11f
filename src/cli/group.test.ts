/**
 * `waymark group …` and `token create --email` (issue 27): the operator makes a person with an email, then manages
 * the account's groups at the command line through the same service as the app and REST, naming a group by its name
 * and a person by email; each change is an event of the operator's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { createServices } from '../services/index.js';

describe.each(ENGINES)('waymark group on %s', (engine) => {
  let ts: TestStore;
  let accountId: string;
  const run = (...args: string[]) => waymark(ts.env, ...args);

  beforeAll(async () => {
    ts = await createTestStore(engine);
    accountId = await createServices(ts.store).auth.createAccount('Team');
  });
  afterAll(async () => ts.close());

  it('makes a person with an email; refuses an email for an agent, a taken one and a bad one', async () => {
    const made = await run('token', 'create', '--account', accountId, '--permission', 'edit', '--capabilities', 'read,run', '--kind', 'person', '--name', 'Ada', '--email', 'Ada@Example.com');
    expect(made.code, made.stderr).toBe(0);
    const id = /principal (\S+)/.exec(made.stderr)![1];
    expect(await ts.store.db.selectFrom('principals').select(['name', 'email']).where('id', '=', id).executeTakeFirst()).toEqual({ name: 'Ada', email: 'ada@example.com' });

    const agent = await run('token', 'create', '--account', accountId, '--permission', 'view', '--capabilities', 'read', '--email', 'bot@example.com');
    expect([agent.code, agent.stderr]).toEqual([2, expect.stringContaining("--email is a new person's")]);
    const taken = await run('token', 'create', '--account', accountId, '--permission', 'view', '--capabilities', 'read', '--kind', 'person', '--name', 'Ada 2', '--email', 'ADA@example.com');
    expect([taken.code, taken.stderr]).toEqual([1, expect.stringContaining('ada@example.com is already the email of Ada')]);
    const bad = await run('token', 'create', '--account', accountId, '--permission', 'view', '--capabilities', 'read', '--kind', 'person', '--email', 'ada at example');
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('is not an email address')]);
  });

  it('creates, lists, shows, fills, empties and deletes a group by its name, recorded as the operator\'s changes', async () => {
    const made = await run('group', 'create', 'Onboarding', '--account', accountId, '--description', 'New starters');
    expect(made.code, made.stderr).toBe(0);
    const group = JSON.parse(made.stdout) as { group_id: string; name: string; description: string };
    expect([group.name, group.description]).toEqual(['Onboarding', 'New starters']);

    const added = await run('group', 'add', 'onboarding', 'ada@example.com', '--account', accountId);
    expect(added.code, added.stderr).toBe(0);
    expect((JSON.parse(added.stdout) as { members: Array<{ name: string }> }).members.map((m) => m.name)).toEqual(['Ada']);
    expect(JSON.parse((await run('group', 'list', '--account', accountId)).stdout)).toMatchObject({ groups: [{ group_id: group.group_id, name: 'Onboarding', member_count: 1 }] });
    expect(JSON.parse((await run('group', 'show', group.group_id, '--account', accountId)).stdout)).toMatchObject({ members: [{ name: 'Ada' }] });

    const stranger = await run('group', 'add', 'Onboarding', 'nobody@example.com', '--account', accountId);
    expect([stranger.code, stranger.stderr]).toEqual([1, expect.stringContaining('No person of your account')]);
    const missing = await run('group', 'show', 'Nobody', '--account', accountId);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('No group "Nobody"')]);
    expect((await run('group', 'frobnicate', '--account', accountId)).code).toBe(2);

    expect(JSON.parse((await run('group', 'remove', 'Onboarding', 'ada@example.com', '--account', accountId)).stdout)).toMatchObject({ members: [] });
    expect((await run('group', 'delete', 'Onboarding', '--account', accountId)).code).toBe(0);
    expect(JSON.parse((await run('group', 'list', '--account', accountId)).stdout)).toEqual({ groups: [] });

    const events = await ts.store.db.selectFrom('events').select(['operation', 'principal_kind', 'principal_id']).where('account_id', '=', accountId).where('resource_type', '=', 'group').orderBy('seq').execute();
    expect(events.map((e) => [e.operation, e.principal_kind, e.principal_id])).toEqual([
      ['create_group', 'operator', null],
      ['add_group_members', 'operator', null],
      ['remove_group_member', 'operator', null],
      ['delete_group', 'operator', null],
    ]);
  });

  it('documents the group command and --email in its help', async () => {
    const help = await run('--help');
    expect(help.stdout).toContain('group list|show|create|delete|add|remove --account ID');
    expect(help.stdout).toContain('[--name NAME] [--email ADDRESS]');
  });
});
