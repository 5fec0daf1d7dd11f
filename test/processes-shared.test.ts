/**
 * Several processes as one (issue 31): two `waymark serve` processes on one store. A person signs in through one
 * and uses the app through the other (the session and its CSRF token are the store's, not a process's), and a
 * request rate used up through one process is refused by the other: the counts are the store's
 * (services/shared-counters.ts), not each process's memory.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capabilityName } from '../src/config.js';
import { createServices } from '../src/services/index.js';
import { createTestStore, ENGINES, type TestStore } from './engines.js';
import { startServe, stopServe, type Served } from './serve.js';
import { Browser, signedIn } from './web-client.js';

const TOKEN_QUOTA = 10;

describe.each(ENGINES)('two waymark serve processes on one %s store', (engine) => {
  let ts: TestStore | undefined;
  const served: Served[] = [];

  afterEach(async () => {
    await Promise.all(served.splice(0).map((s) => stopServe(s)));
    await ts?.close();
  });

  it('a session opened on one works on the other, and a token past its rate on one is refused on the other', { timeout: 60_000 }, async () => {
    ts = await createTestStore(engine);
    const services = createServices(ts.store);
    const { accountId, token } = await services.auth.init();
    const owner = token?.token as string;
    const env = { ...ts.env, WAYMARK_QUOTA_REQUESTS_PER_TOKEN: String(TOKEN_QUOTA), WAYMARK_QUOTA_REQUESTS_PER_ACCOUNT: '1000' };
    served.push(...(await Promise.all([startServe(env), startServe(env)])));
    const [one, two] = served.map((s) => new URL(s.url).origin) as [string, string];

    // Signed in through one; the other takes its cookie and CSRF token.
    const person = await services.auth.createToken({ accountId, permission: 'edit', capabilities: (['author', 'read', 'run'] as const).map(capabilityName), kind: 'person' });
    const first = await signedIn(services, one, person.principalId);
    const second = new Browser(two);
    for (const [name, value] of first.cookies) second.cookies.set(name, value);
    second.csrf = first.csrf;
    const me = await second.ok(second.get<{ principal_id: string }>('/me'));
    expect(me.principal_id).toBe(person.principalId);
    expect((await second.ok(second.get<{ trails: unknown[] }>('/trails'))).trails).toEqual([]);
    // A write needs the session's CSRF token on the other process as on the first; signing out there ends the
    // session on both.
    expect((await second.post('/signout', undefined, { csrf: false })).status).toBe(403);
    expect((await second.post('/signout')).status).toBe(200);
    expect((await first.get('/me')).status).toBe(401);

    // The owner's token: one call through the second process, the rest of its quota through the first.
    const call = (origin: string) => fetch(`${origin}/api/v1/flows`, { headers: { authorization: `Bearer ${owner}` } });
    expect((await call(two)).status).toBe(200);
    for (let i = 1; i < TOKEN_QUOTA; i++) expect((await call(one)).status).toBe(200);
    // Within a round of the counters (200 ms) the first process's count is in the store.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const refused = await call(two);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string; details: { limit: string } } }).error).toMatchObject({ code: 'TOO_MANY_REQUESTS', details: { limit: 'requests_per_token' } });
    expect((await call(one)).status).toBe(429);
  });
});
