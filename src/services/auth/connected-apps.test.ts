import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, createTestStore, type TestStore } from '../../../test/engines.js';
import { upsertRecord } from '../../store/repositories/oauth.repo.js';
import { createServices, type Services } from '../index.js';
import type { Actor } from '../actor.js';

/**
 * The connected apps a person sees (issue 28): one row per app however often it signed in, none for an authorization
 * left unfinished, and disconnecting an app ends all its grants. Records as oidc-provider stores them (the adapter's
 * table), written here so each case is exact.
 */
describe.each(ENGINES)('connected apps on %s', (engine) => {
  let ts: TestStore;
  let services: Services;
  let person: Actor;
  const resource = 'http://127.0.0.1:3000/mcp';
  const iat = (iso: string) => Math.floor(Date.parse(iso) / 1000);

  beforeAll(async () => {
    ts = await createTestStore(engine);
    services = createServices(ts.store);
    const account = await services.auth.createAccount('Apps');
    const created = await services.auth.createToken({ accountId: account, permission: 'edit', capabilities: ['waymark.read', 'waymark.run'], kind: 'person' });
    person = (await services.auth.authenticate(created.token)) as Actor;
  });
  afterAll(async () => ts.close());

  const record = (model: string, id: string, payload: object, grantId: string | null, principalId: string | null = null) =>
    upsertRecord(ts.store.db, { model, id, payload: ts.store.dialect.json(payload), grant_id: grantId, uid: null, principal_id: principalId, expires_at: '2999-01-01T00:00:00.000Z', consumed_at: null });

  it('lists an app once, with when it was connected and last used; hides an unfinished authorization; disconnect ends every grant', async () => {
    await record('Client', 'client-a', { client_id: 'client-a', client_name: 'Desk app', redirect_uris: ['http://127.0.0.1:7000/cb'] }, null);
    await record('Client', 'client-b', { client_id: 'client-b', client_name: 'Abandoned', redirect_uris: ['https://b.example/cb'] }, null);
    // Desk app signed in twice (two grants), the second with run as well; Abandoned never got a token.
    await record('Grant', 'g1', { clientId: 'client-a', iat: iat('2026-11-01T09:00:00Z'), resources: { [resource]: 'waymark.read' } }, 'g1', person.principalId);
    await record('Grant', 'g2', { clientId: 'client-a', iat: iat('2026-11-20T09:00:00Z'), resources: { [resource]: 'waymark.read waymark.run' } }, 'g2', person.principalId);
    await record('Grant', 'g3', { clientId: 'client-b', iat: iat('2026-11-21T09:00:00Z'), resources: { [resource]: 'waymark.read' } }, 'g3', person.principalId);
    await record('AccessToken', 't1', { iat: iat('2026-11-02T10:00:00Z') }, 'g1');
    await record('RefreshToken', 't2', { iat: iat('2026-11-25T08:30:00Z') }, 'g2');

    const apps = await services.oauth.listGrants(person);
    expect(apps).toEqual([
      {
        grant_id: 'g2',
        client_id: 'client-a',
        client_name: 'Desk app',
        redirect_hosts: ['127.0.0.1:7000'],
        capabilities: ['waymark.read', 'waymark.run'],
        created_at: '2026-11-01T09:00:00.000Z',
        last_used_at: '2026-11-25T08:30:00.000Z',
        expires_at: '2999-01-01T00:00:00.000Z',
      },
    ]);

    await services.oauth.revokeGrant(person, 'g1');
    expect(await services.oauth.listGrants(person)).toEqual([]);
    const left = await ts.store.db.selectFrom('oauth_records').select(['model', 'id']).where('grant_id', 'in', ['g1', 'g2']).execute();
    expect(left).toEqual([]);
    // The unfinished authorization is another app's: untouched.
    expect(await ts.store.db.selectFrom('oauth_records').select('id').where('id', '=', 'g3').execute()).toEqual([{ id: 'g3' }]);
  });
});
