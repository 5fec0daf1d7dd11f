/**
 * What the store leaves readable and what `serve` prints (issue 16, finding 10): the embedded store is its
 * owner's alone (directory 0700, files 0600), and a PostgreSQL URL's password is never printed.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { createTestStore, ENGINES } from '../../test/engines.js';
import { createServices } from '../services/index.js';
import { openStore } from '../store/store.js';

const BIN = new URL('../../bin/waymark.js', import.meta.url).pathname;
const mode = (path: string) => statSync(path).mode & 0o777;

describe('the embedded store on disk', () => {
  const parent = mkdtempSync(join(tmpdir(), 'waymark-files-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('waymark init makes the directories 0700 and the database 0600; so are -wal and -shm while it is open', async () => {
    const dir = join(parent, 'new', 'store');
    expect((await waymark({ WAYMARK_DATA_DIR: dir }, 'init')).code).toBe(0);
    expect([mode(join(parent, 'new')), mode(dir), mode(join(dir, 'waymark.db'))]).toEqual([0o700, 0o700, 0o600]);
    const store = openStore({ dataDir: dir });
    try {
      // A write through the services, so the WAL has something in it.
      await createServices(store).auth.createAccount('n');
      const files = ['waymark.db-wal', 'waymark.db-shm'].map((f) => join(dir, f));
      expect(files.map(existsSync)).toEqual([true, true]);
      expect(files.map(mode)).toEqual([0o600, 0o600]);
    } finally {
      await store.close();
    }
  });

  it('tightens the files of a store made world-readable by an earlier version when it opens it', async () => {
    const dir = join(parent, 'old');
    await openStore({ dataDir: dir }).close();
    chmodSync(join(dir, 'waymark.db'), 0o644);
    const store = openStore({ dataDir: dir });
    await store.close();
    expect(mode(join(dir, 'waymark.db'))).toBe(0o600);
  });
});

/** The first line `serve` prints, then the process is stopped. */
function serveBanner(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: { ...process.env, ...env, WAYMARK_LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) {
        child.kill('SIGKILL');
        resolve(out.slice(0, out.indexOf('\n')));
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
}

describe.runIf(ENGINES.includes('postgres'))('serve on PostgreSQL', { timeout: 120_000 }, () => {
  it('prints the store URL with its password hidden, in the user part and as a parameter', async () => {
    const ts = await createTestStore('postgres');
    try {
      const url = new URL(ts.env.WAYMARK_DATABASE_URL);
      url.searchParams.set('password', 'param-secret-1');
      const banner = await serveBanner({ WAYMARK_DATABASE_URL: url.href });
      expect(banner).toMatch(/^Waymark listening on http:\/\/127\.0\.0\.1:\d+\/mcp \(store: postgres:\/\/.*password=\*\*\*\)$/);
      expect(banner).not.toContain('param-secret-1');
      url.searchParams.delete('password');
      url.password = 'user-secret-2';
      const second = await serveBanner({ WAYMARK_DATABASE_URL: url.href });
      expect(second).toContain(`//${url.username}:***@`);
      expect(second).not.toContain('user-secret-2');
    } finally {
      await ts.close();
    }
  });
});
