/**
 * The account's scopes by name (issue 28) over REST with a person's session, on both engines: an account-level
 * principal lists every scope of its account by name, a scope-limited one only its own, and nobody another account's;
 * an Admin of the whole account makes one (its event in the write), a name the account has already (case aside) or a
 * blank one is refused in words and writes nothing, and a scope-limited Admin or a non-Admin makes none.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { Browser, startWebServer, type WebServer } from '../../../test/web-client.js';
import { allCapabilityNames } from '../../config.js';
import type { ScopeList, ScopeView } from '../../services/auth/shapes.js';
import type { Permission } from '../../services/actor.js';

describe.each(ENGINES)('scopes on %s', (engine) => {
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

  /** A fresh account (so its list is exactly what the test made) and a person of it signed in to the app. */
  async function personOf(accountId: string, permission: Permission, scopeId: string | null = null): Promise<Browser> {
    const issued = await h.services.auth.createToken({ accountId, scopeId, permission, capabilities: allCapabilityNames(), kind: 'person', name: `Pat ${permission}` });
    const browser = new Browser(web.origin);
    const link = await h.services.signin.createLink({ principalId: issued.principalId, capabilities: allCapabilityNames() });
    expect((await browser.open(`${web.origin}/app/signin?token=${link.token}`)).status).toBe(303);
    await browser.me();
    return browser;
  }
  const scopeRows = (accountId: string) => h.store.store.db.selectFrom('scopes').select(['id', 'name']).where('account_id', '=', accountId).orderBy('id').execute();
  /** The account's changes of scopes (signing a person in records its own). */
  const eventCount = async (accountId: string) => (await h.store.store.db.selectFrom('events').select('id').where('account_id', '=', accountId).where('resource_type', '=', 'scope').execute()).length;

  it('an Admin of the whole account makes scopes and lists them by name; its event is in the write', async () => {
    const accountId = await h.services.auth.createAccount('Acme');
    const admin = await personOf(accountId, 'admin');
    expect(await admin.ok(admin.get<ScopeList>('/scopes'))).toEqual({ scopes: [] });
    const field = await admin.ok(admin.post<ScopeView>('/scopes', { name: '  Field team ' }));
    expect(field).toEqual({ scope_id: expect.any(String), name: 'Field team' });
    const back = await admin.ok(admin.post<ScopeView>('/scopes', { name: 'back office' }));
    expect(await admin.ok(admin.get<ScopeList>('/scopes'))).toEqual({ scopes: [back, field] });
    const [event] = await h.store.store.db.selectFrom('events').select(['operation', 'resource_type', 'scope_id', 'summary']).where('resource_id', '=', field.scope_id).execute();
    expect(event).toEqual({ operation: 'create_scope', resource_type: 'scope', scope_id: field.scope_id, summary: JSON.stringify({ name: 'Field team' }) });
    // A person of View permission sees them too: a scope is chosen by its name wherever one is asked for.
    const viewer = await personOf(accountId, 'view');
    expect((await viewer.ok(viewer.get<ScopeList>('/scopes'))).scopes.map((s) => s.name)).toEqual(['back office', 'Field team']);
  });

  it('refuses a name the account has already, case aside, and a blank one, in words, writing nothing', async () => {
    const accountId = await h.services.auth.createAccount('Dupes');
    const admin = await personOf(accountId, 'admin');
    await admin.ok(admin.post<ScopeView>('/scopes', { name: 'Équipe Nord' }));
    const rows = await scopeRows(accountId);
    const events = await eventCount(accountId);
    const taken = await admin.post('/scopes', { name: 'ÉQUIPE NORD' });
    expect([taken.status, taken.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(taken.body.error?.details?.issues).toEqual([{ path: 'name', message: 'your account already has a scope named "ÉQUIPE NORD": choose another name' }]);
    const blank = await admin.post('/scopes', { name: '   ' });
    expect([blank.status, blank.body.error?.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(await scopeRows(accountId)).toEqual(rows);
    expect(await eventCount(accountId)).toBe(events);
    // Another account may use the same name: names are unique per account.
    const other = await personOf(await h.services.auth.createAccount('Elsewhere'), 'admin');
    expect((await other.ok(other.post<ScopeView>('/scopes', { name: 'Équipe Nord' }))).name).toBe('Équipe Nord');
  });

  it('two Admins naming a scope alike at once: one is made, the other refused', async () => {
    const accountId = await h.services.auth.createAccount('Race');
    const [a, b] = [await personOf(accountId, 'admin'), await personOf(accountId, 'admin')];
    const answers = await Promise.all([a.post('/scopes', { name: 'Night desk' }), b.post('/scopes', { name: 'night DESK' })]);
    expect(answers.map((r) => r.body.error?.code ?? 'made').sort()).toEqual(['VALIDATION_ERROR', 'made']);
    expect((await scopeRows(accountId)).length).toBe(1);
  });

  it('a scope-limited principal lists only its own scope and makes none; nobody lists another account\'s', async () => {
    const accountId = await h.services.auth.createAccount('Split');
    const north = await h.services.auth.createScope(accountId, 'North');
    const south = await h.services.auth.createScope(accountId, 'South');
    const elsewhere = await h.services.auth.createScope(await h.services.auth.createAccount('Stranger'), 'Stranger desk');
    const admin = await personOf(accountId, 'admin');
    expect(await admin.ok(admin.get<ScopeList>('/scopes'))).toEqual({ scopes: [{ scope_id: north, name: 'North' }, { scope_id: south, name: 'South' }] });
    const scopedAdmin = await personOf(accountId, 'admin', north);
    expect(await scopedAdmin.ok(scopedAdmin.get<ScopeList>('/scopes'))).toEqual({ scopes: [{ scope_id: north, name: 'North' }] });
    const events = await eventCount(accountId);
    const refused = await scopedAdmin.post('/scopes', { name: 'West' });
    expect([refused.status, refused.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.error?.message).toContain('Only an Admin of the whole account makes scopes');
    const editor = await personOf(accountId, 'edit');
    const notAdmin = await editor.post('/scopes', { name: 'West' });
    expect([notAdmin.status, notAdmin.body.error?.details?.required_permission]).toEqual([403, 'admin']);
    expect((await scopeRows(accountId)).map((r) => r.name).sort()).toEqual(['North', 'South']);
    expect(await eventCount(accountId)).toBe(events);
    const listed = [...(await admin.ok(admin.get<ScopeList>('/scopes'))).scopes, ...(await scopedAdmin.ok(scopedAdmin.get<ScopeList>('/scopes'))).scopes];
    expect(listed.map((s) => s.scope_id)).not.toContain(elsewhere);
  });
});
