/**
 * `waymark webhook …` (issue 29): the operator manages an account's subscriptions at the command line, through
 * the same service as the app and REST; a secret is printed once; each change is an event of the operator's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { createServices } from '../services/index.js';

describe.each(ENGINES)('waymark webhook on %s', (engine) => {
  let ts: TestStore;
  let accountId: string;
  const run = (...args: string[]) => waymark(ts.env, ...args);

  beforeAll(async () => {
    ts = await createTestStore(engine);
    accountId = await createServices(ts.store).auth.createAccount('Hooks');
  });
  afterAll(async () => ts.close());

  it('creates, lists, rotates and removes a subscription, recorded as the operator\'s changes', async () => {
    const made = await run('webhook', 'create', '--account', accountId, '--url', 'https://hooks.example.com/in', '--events', 'trail.started,trail.completed');
    expect(made.code, made.stderr).toBe(0);
    const created = JSON.parse(made.stdout) as { webhook_id: string; secret: string; event_types: string[] };
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.event_types).toEqual(['trail.completed', 'trail.started']);

    const listed = await run('webhook', 'list', '--account', accountId);
    expect(listed.stdout).toContain(created.webhook_id);
    expect(listed.stdout).not.toContain(created.secret);

    const rotated = JSON.parse((await run('webhook', 'rotate', created.webhook_id, '--account', accountId, '--overlap-hours', '2')).stdout) as { secret: string; previous_secret_until: string | null };
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_until).not.toBeNull();

    const refused = await run('webhook', 'create', '--account', accountId, '--url', 'http://hooks.example.com/in');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('must be https');

    expect((await run('webhook', 'remove', created.webhook_id, '--account', accountId)).code).toBe(0);
    expect(JSON.parse((await run('webhook', 'list', '--account', accountId)).stdout)).toEqual({ webhooks: [] });

    const events = await ts.store.db.selectFrom('events').select(['operation', 'principal_kind', 'principal_id', 'summary']).where('account_id', '=', accountId).where('resource_type', '=', 'webhook').orderBy('seq').execute();
    expect(events.map((e) => [e.operation, e.principal_kind, e.principal_id])).toEqual([
      ['create_webhook', 'operator', null],
      ['rotate_webhook_secret', 'operator', null],
      ['delete_webhook', 'operator', null],
    ]);
    expect(JSON.stringify(events)).not.toContain('whsec_');
  });
});
