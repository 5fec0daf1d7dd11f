/**
 * The people operation (issue 26, the Activity page's names) over REST with the person's session, on both engines:
 * the principals of the caller's account by name and kind; another account's and an unknown id are left out; a
 * scope-limited caller is named only its own scope's principals.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { signedIn, startWebServer, type WebServer } from '../../../test/web-client.js';
import type { People } from '../../services/auth/shapes.js';

describe.each(ENGINES)('people on %s', (engine) => {
  let h: Harness;
  let web: WebServer;

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  const query = (ids: string[]) => `/people?${ids.map((id) => `principal_ids=${id}`).join('&')}`;

  it('names the principals of the caller\'s account, and leaves out any other id', async () => {
    const person = await h.services.auth.createToken({ accountId: h.accountId, permission: 'admin', capabilities: ['waymark.read'], kind: 'person', name: 'Ada Admin' });
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('Elsewhere') });
    const browser = await signedIn(h.services, web.origin, person.principalId);
    const answer = await browser.ok(browser.get<People>(query([person.principalId, h.owner.principalId, stranger.principalId, randomUUID(), person.principalId])));
    const owner = await h.services.auth.principal(h.owner.principalId);
    expect(answer.people.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [
        { principal_id: person.principalId, name: 'Ada Admin', kind: 'person', email: null, scope_id: null, permission: 'admin', max_capabilities: ['waymark.author', 'waymark.read', 'waymark.run'] },
        { principal_id: h.owner.principalId, name: owner!.name, kind: 'agent', email: null, scope_id: null, permission: 'admin', max_capabilities: ['waymark.author', 'waymark.read', 'waymark.run'] },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
    // Without ids: everyone of the account the caller may see (issue 27), and none of the other account.
    const everyone = await browser.ok(browser.get<People>('/people'));
    expect(everyone.people.map((p) => p.principal_id)).toEqual(expect.arrayContaining([person.principalId, h.owner.principalId]));
    expect(everyone.people.map((p) => p.principal_id)).not.toContain(stranger.principalId);
  });

  it('names a scope-limited caller only the principals of its own scope', async () => {
    const scopeId = await h.services.auth.createScope(h.accountId, 'Team');
    const scoped = await h.services.auth.createToken({ accountId: h.accountId, scopeId, permission: 'admin', capabilities: ['waymark.read'], kind: 'person', name: 'Sam Scoped' });
    const browser = await signedIn(h.services, web.origin, scoped.principalId);
    const answer = await browser.ok(browser.get<People>(query([scoped.principalId, h.owner.principalId])));
    expect(answer.people).toEqual([{ principal_id: scoped.principalId, name: 'Sam Scoped', kind: 'person', email: null, scope_id: scopeId, permission: 'admin', max_capabilities: ['waymark.author', 'waymark.read', 'waymark.run'] }]);
    expect((await browser.ok(browser.get<People>('/people'))).people.map((p) => p.name)).toEqual(['Sam Scoped']);
  });
});
