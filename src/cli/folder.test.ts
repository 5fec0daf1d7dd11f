import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { ENGINES } from '../../test/engines.js';
import { writeCorpus, type Corpus } from '../../test/folder-fixtures.js';
import { startHarness, type Harness } from '../../test/harness.js';

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, path));
    else out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

describe.each(ENGINES)('waymark export and import on %s', (engine) => {
  let h: Harness;
  let corpus: Corpus;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-folder-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    h = await startHarness(engine);
    corpus = await writeCorpus(h);
  });
  afterAll(async () => {
    await h.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('smoke', async () => {
    const out = tempDir();
    const run = await waymark(h.store.env, 'export', '--account', h.accountId, '--out', out);
    expect(run.stderr).toContain('Wrote');
    expect(run.code).toBe(0);
    const tree = readTree(out);
    console.log(Object.keys(tree));
    console.log(tree['bits/welcome-aboard.md']);
    console.log(tree['flows/onboarding.yaml']);
    const other = await h.services.auth.createAccount('other');
    const imp = await waymark(h.store.env, 'import', '--account', other, out);
    console.log(imp.stdout, imp.stderr);
    expect(imp.code).toBe(0);
    const again = await waymark(h.store.env, 'import', '--account', other, out);
    console.log(again.stdout, again.stderr);
    void corpus;
  });
});
