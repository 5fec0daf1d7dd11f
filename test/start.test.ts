/**
 * `npm ci && npm start` as a new user runs it: `waymark serve` from the launcher, on a fresh embedded store,
 * with no WAYMARK_WEB_ROOT, serves the web app and the step form's MCP App from the build `npm ci` made
 * (dist/web). The browser tests build the web app into a folder of their own and name it, so only this test
 * sees where the server finds its files by default (it once looked in dist/dist/web when run compiled).
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Served } from './serve.js';
import { waymark } from './cli.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/waymark.js');
const BUILT = existsSync(join(ROOT, 'dist/web/index.html'));

describe.skipIf(!BUILT)('npm start on a fresh machine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-start-'));
  const env = { WAYMARK_DATA_DIR: dir, WAYMARK_WEB_ROOT: '', WAYMARK_DATABASE_URL: '' };
  let served: Served;
  let token: string;

  beforeAll(async () => {
    token = execFileSync(process.execPath, [BIN, 'init'], { env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' }, encoding: 'utf8' }).trim().split('\n').at(-1) as string;
    served = await startServe(env);
  }, 60_000);
  afterAll(() => {
    served?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the web app at /app/', async () => {
    const response = await fetch(new URL('/app/', served.url));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<script type="module" src="[^"]+\.js"/);
  });

  it("prints sign-in links on the port the server runs on, not serve's default", async () => {
    const cli = { ...env, WAYMARK_PUBLIC_URL: '', WAYMARK_PORT: '' };
    const account = (await waymark(cli, 'account', 'create', 'Links')).stdout.trim();
    expect((await waymark(cli, 'token', 'create', '--account', account, '--permission', 'edit', '--capabilities', 'run', '--kind', 'person')).code).toBe(0);
    const listed = (await waymark(cli, 'token', 'list', '--account', account)).stdout.trim().split('\n');
    const principal = (listed[1] as string).split('\t')[1] as string;
    const link = await waymark(cli, 'signin-link', 'create', '--principal', principal);
    expect(link.code).toBe(0);
    expect(new URL(link.stdout.trim()).origin).toBe(new URL(served.url).origin);
    const page = await fetch(link.stdout.trim(), { redirect: 'manual' });
    expect(page.status).toBeLessThan(400);
  });

  it('serves the step form MCP App document', async () => {
    const client = new Client({ name: 'start-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      const read = await client.readResource({ uri: 'ui://waymark/step' });
      const first = read.contents[0] as { mimeType?: string; text?: string };
      expect(first.mimeType).toBe('text/html;profile=mcp-app');
      expect(first.text?.length).toBeGreaterThan(100_000);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!BUILT)('the first start, as an operator meets it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-first-'));
  const env = { WAYMARK_DATA_DIR: dir, WAYMARK_WEB_ROOT: '', WAYMARK_DATABASE_URL: '', WAYMARK_PUBLIC_URL: '' };
  let served: Served;
  beforeAll(async () => {
    served = await startServe(env);
  }, 60_000);
  afterAll(() => {
    served?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the app, how to invite, and a one-time link that signs the owner in to the app; later starts print no link', async () => {
    const origin = new URL(served.url).origin;
    const banner = served.out();
    expect(banner).toContain(`The web app: ${origin}/app/ (to invite a person, an Admin opens its People page: ${origin}/app/#/people)`);
    const line = banner.split('\n').find((l) => l.startsWith('Sign in to the web app as its owner'));
    expect(line).toMatch(/^Sign in to the web app as its owner \(this link works once, until \d{4}-\d\d-\d\dT[\d:.]+Z\): http:\/\/\S+$/);
    const link = (line as string).split(': ').at(-1) as string;
    expect(new URL(link).origin).toBe(origin);
    const opened = await fetch(link, { redirect: 'manual' });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).not.toBe('');
    // The session is the owner's, an Admin with every capability: the People page's list answers.
    const people = await fetch(new URL('/api/v1/people', origin), { headers: { cookie } });
    expect(people.status).toBe(200);
    expect(((await people.json()) as { data: { people: Array<{ name: string; permission: string | null }> } }).data.people).toEqual([expect.objectContaining({ name: 'owner', permission: 'admin' })]);
    expect((await fetch(link, { redirect: 'manual' })).headers.get('set-cookie')).toBeNull();

    // The operator who missed it asks for another; a restart prints none.
    const again = await waymark({ ...env, WAYMARK_PORT: '' }, 'signin-link', 'create', '--owner');
    expect(again.code).toBe(0);
    expect(new URL(again.stdout.trim()).origin).toBe(origin);
    served.child.kill();
    await once(served.child, 'exit');
    served = await startServe(env);
    expect(served.out()).not.toContain('Sign in to the web app as its owner');
    expect(served.out()).not.toContain('First start');
  });
});
