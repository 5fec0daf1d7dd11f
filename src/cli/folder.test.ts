/**
 * waymark export and waymark import (issue 30) on both engines, through the command as scripts run it: a corpus of
 * every element type, connection condition and citation goes out and comes back byte for byte (into another
 * store, and beside itself into another account of the same store); a hand-edited folder imports to exactly its
 * edits; a folder imported twice changes nothing the second time; bad folders are refused whole, each problem
 * named by file and line, with nothing written and nothing read outside the folder.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waymark } from '../../test/cli.js';
import { createTestStore, ENGINES, type TestStore } from '../../test/engines.js';
import { writeCorpus, type Corpus } from '../../test/folder-fixtures.js';
import { startHarness, type Harness } from '../../test/harness.js';
import { operatorActor } from '../services/actor.js';
import { createServices, type Services } from '../services/index.js';
import type { Store } from '../store/store.js';

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, path));
    else out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

async function eventCount(store: Store, accountId: string): Promise<number> {
  const row = await store.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Lines of `a` and `b` that differ, for two texts of the same number of lines. */
function changedLines(a: string, b: string): string[] {
  const left = a.split('\n');
  const right = b.split('\n');
  expect(right.length).toBe(left.length);
  return left.flatMap((line, i) => (line === right[i] ? [] : [`${line} → ${right[i]}`]));
}

describe.each(ENGINES)('waymark export and import on %s', (engine) => {
  let h: Harness;
  let corpus: Corpus;
  let exported: string;
  let tree: Record<string, string>;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'waymark-folder-'));
    dirs.push(dir);
    return dir;
  };
  const copyOf = (dir: string) => {
    const copy = tempDir();
    cpSync(dir, copy, { recursive: true });
    return copy;
  };
  const pathOf = (title: string) => Object.keys(tree).find((p) => p.startsWith('bits/') && tree[p].includes(`\ntitle: ${title}\n`))!;

  beforeAll(async () => {
    h = await startHarness(engine);
    corpus = await writeCorpus(h);
    exported = tempDir();
    const run = await waymark(h.store.env, 'export', '--account', h.accountId, '--out', exported);
    expect(run).toMatchObject({ code: 0, stdout: '' });
    tree = readTree(exported);
  });
  afterAll(async () => {
    await h.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('writes a file per bit, reference and flow, named from titles, and a manifest', () => {
    expect(Object.keys(tree)).toEqual([
      expect.stringMatching(/^bits\/done-[0-9a-f]{8}\.md$/),
      expect.stringMatching(/^bits\/done-[0-9a-f]{8}\.md$/),
      'bits/fill-the-forms.md',
      'bits/ops-setup.md',
      'bits/watch-and-read.md',
      'bits/welcome-aboard.md',
      'flows/onboarding.yaml',
      'references/desk-card.json',
      'references/glossary.md',
      'references/security-policy.md',
      'waymark.json',
    ]);
    expect(JSON.parse(tree['waymark.json'])).toEqual({ format: 'waymark-folder', version: 1, contents: 'all' });
    const welcome = tree['bits/welcome-aboard.md'];
    // Targets are files, relative to this one; connection lines carry no connection id.
    expect(welcome).toContain('Read [[ref:../references/security-policy.md|the policy]] first.');
    expect(welcome).toMatch(/^\[Engineers\]\(bit-connection:fill-the-forms\.md\?when=[0-9a-f-]{36}:[0-9a-f-]{36}\)$/m);
    expect(welcome).toMatch(/^\[→\]\(bit-connection:watch-and-read\.md\?when=[0-9a-f-]{36}:checked&preview=0\)$/m);
    expect(welcome).not.toContain(corpus.bits.forms);
    expect(welcome.startsWith(`---\nid: ${corpus.start}\ntitle: Welcome aboard\nabstract: The first day.\n`)).toBe(true);
    expect(tree['flows/onboarding.yaml']).toContain('start_bit: ../bits/welcome-aboard.md\n');
    expect(tree['bits/fill-the-forms.md']).toContain('references:\n  - file: ../references/security-policy.md\n    label: Before you type\n  - file: ../references/glossary.md\n---\n');
    expect(tree['bits/ops-setup.md']).toContain('Keep [[ref:../references/desk-card.json|the card]] at hand.');
    expect(JSON.parse(tree['references/desk-card.json'])).toEqual({
      id: corpus.references.card,
      title: 'Desk card',
      abstract: 'Bold then plain.',
      content: [{ type: 'p', children: [{ text: 'Bold ', bold: true }, { text: 'then plain.' }] }],
    });
  });

  it('is deterministic: the same records give the same bytes, and a one-word edit is a one-line diff', async () => {
    const again = tempDir();
    await waymark(h.store.env, 'export', '--account', h.accountId, '--out', again);
    expect(readTree(again)).toEqual(tree);
    const { bit_body } = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id: corpus.bits.ops });
    await h.owner.client.ok('update_bit', { bit_id: corpus.bits.ops, bit_body: bit_body.replace('A step.', 'A bigger step.'), content_format: 'markdown' });
    await waymark(h.store.env, 'export', '--account', h.accountId, '--out', again);
    const edited = readTree(again);
    expect(changedLines(tree['bits/ops-setup.md'], edited['bits/ops-setup.md'])).toEqual(['A step. → A bigger step.']);
    expect(Object.keys(edited).filter((path) => edited[path] !== tree[path])).toEqual(['bits/ops-setup.md']);
    await h.owner.client.ok('update_bit', { bit_id: corpus.bits.ops, bit_body, content_format: 'markdown' });
  });

  it('comes back byte for byte from an empty account of another store, and a second import changes nothing', async () => {
    const other: TestStore = await createTestStore(engine);
    try {
      const services: Services = createServices(other.store);
      const account = await services.auth.createAccount('production');
      const imported = await waymark(other.env, 'import', '--account', account, exported);
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('bits: 6 added, 0 changed, 0 archived, 0 unchanged\n');
      expect(imported.stdout).toContain('connections: 6 added, 0 removed\n');
      const events = await eventCount(other.store, account);
      // The account's own, then one per record written: 6 bits, 3 references, 1 flow.
      expect(events).toBe(1 + 10);
      const back = tempDir();
      expect((await waymark(other.env, 'export', '--account', account, '--out', back)).code).toBe(0);
      expect(readTree(back)).toEqual(tree);
      const twice = await waymark(other.env, 'import', '--account', account, exported);
      expect(twice).toMatchObject({ code: 0, stderr: 'Nothing to change.\n' });
      expect(twice.stdout).toContain('bits: 0 added, 0 changed, 0 archived, 6 unchanged\n');
      expect(await eventCount(other.store, account)).toBe(events);
      // The ids survive: a trail's answers name the same elements there.
      const view = await services.bits.get({ accountId: account, scopeId: null, principalId: 'x', kind: 'agent', permission: 'admin', capabilities: [] }, { bit_id: corpus.start });
      const mine = await h.owner.client.ok<{ elements: unknown[]; connections: Array<{ when?: unknown; params: unknown; label: string | null }> }>('get_bit', { bit_id: corpus.start });
      expect(view.elements).toEqual(mine.elements);
      expect(view.connections.map((c) => [c.label, c.params])).toEqual(mine.connections.map((c) => [c.label, c.params]));
      const links = (view: { references: Array<{ reference_id: string; display_label: string | null; label: string; position: number }> }) => view.references.map(({ reference_id, display_label, label, position }) => ({ reference_id, display_label, label, position }));
      const operator = { accountId: account, scopeId: null, principalId: 'x', kind: 'agent' as const, permission: 'admin' as const, capabilities: [] };
      expect(links(await services.bits.get(operator, { bit_id: corpus.bits.forms }))).toEqual(links(await h.owner.client.ok('get_bit', { bit_id: corpus.bits.forms })));
    } finally {
      await other.close();
    }
  });

  it('copies beside the original into another account of the same store, under ids of its own', async () => {
    const account = await h.services.auth.createAccount('copy');
    expect((await waymark(h.store.env, 'import', '--account', account, exported)).code).toBe(0);
    const copy = tempDir();
    await waymark(h.store.env, 'export', '--account', account, '--out', copy);
    const copied = readTree(copy);
    // Only the records' own ids differ (and the pieces of them that tell the two Done bits' files apart).
    const withoutIds = (files: Record<string, string>) => Object.entries(files).map(([p, text]) => [p.replace(/-[0-9a-f]{8}\.md$/, '.md'), text.replace(/^(id: | {2}"id": ).*$/m, 'id: …').replace(/done-[0-9a-f]{8}\.md/g, 'done.md')]);
    expect(withoutIds(copied).sort()).toEqual(withoutIds(tree).sort());
    expect(copied['bits/welcome-aboard.md']).not.toContain(`id: ${corpus.start}`);
    expect(await waymark(h.store.env, 'import', '--account', account, exported)).toMatchObject({ code: 0, stderr: 'Nothing to change.\n' });
  });

  it('imports a hand-edited folder to exactly its edits: a title, a new bit, a connection removed', async () => {
    const edited = copyOf(exported);
    const forms = join(edited, 'bits/fill-the-forms.md');
    writeFileSync(forms, readFileSync(forms, 'utf8').replace('title: Fill the forms\n', 'title: Fill in the forms\n'));
    const media = join(edited, 'bits/watch-and-read.md');
    const done = pathOf('Done');
    const doneName = done.slice('bits/'.length);
    writeFileSync(media, readFileSync(media, 'utf8').replace(`\n[Finish](bit-connection:${doneName})\n`, '\n'));
    writeFileSync(join(edited, 'bits/extra-step.md'), `---\ntitle: Extra step\n---\nOne more thing.\n\n[→](bit-connection:${doneName})\n`);
    const before = await eventCount(h.store.store, h.accountId);
    const formsBefore = await h.owner.client.ok<{ elements: unknown[] }>('get_bit', { bit_id: corpus.bits.forms });

    const dry = await waymark(h.store.env, 'import', '--account', h.accountId, '--dry-run', edited);
    expect(dry).toMatchObject({ code: 0, stderr: 'Dry run: nothing written.\n' });
    expect(dry.stdout).toBe(
      [
        'bits: 1 added, 2 changed, 0 archived, 4 unchanged',
        '  + bits/extra-step.md',
        '  ~ bits/fill-the-forms.md',
        '  ~ bits/watch-and-read.md',
        'references: 0 added, 0 changed, 0 archived, 3 unchanged',
        'flows: 0 added, 0 changed, 1 unchanged',
        'connections: 1 added, 1 removed',
        `  + bits/extra-step.md → ${done}`,
        `  - bits/watch-and-read.md → ${done}`,
        '',
      ].join('\n'),
    );
    expect(await eventCount(h.store.store, h.accountId)).toBe(before);
    expect((await waymark(h.store.env, 'import', '--account', h.accountId, '--check', edited)).code).toBe(3);

    const applied = await waymark(h.store.env, 'import', '--account', h.accountId, edited);
    expect(applied).toMatchObject({ code: 0, stdout: dry.stdout, stderr: 'Imported.\n' });
    expect(await eventCount(h.store.store, h.accountId)).toBe(before + 3);
    const formsAfter = await h.owner.client.ok<{ bit_title: string; elements: unknown[] }>('get_bit', { bit_id: corpus.bits.forms });
    expect(formsAfter.bit_title).toBe('Fill in the forms');
    expect(formsAfter.elements).toEqual(formsBefore.elements);
    const mediaAfter = await h.owner.client.ok<{ connections: unknown[] }>('get_bit', { bit_id: corpus.bits.media });
    expect(mediaAfter.connections).toEqual([]);
    const history = await h.owner.client.ok<{ events: Array<{ operation: string; revision: number }> }>('list_history', { resource_type: 'bit', resource_id: corpus.bits.forms });
    expect(history.events[0]).toMatchObject({ operation: 'import' });
    // The same folder again: nothing to change (the new file's bit is found by its path's id).
    expect(await waymark(h.store.env, 'import', '--account', h.accountId, '--check', edited)).toMatchObject({ code: 0 });
  });

  it('reads a folder checked out with Windows line endings as the same folder', async () => {
    const crlf = copyOf(exported);
    for (const [path, text] of Object.entries(tree)) writeFileSync(join(crlf, path), text.replace(/\n/g, '\r\n'));
    const account = await h.services.auth.createAccount('windows');
    await waymark(h.store.env, 'import', '--account', account, exported);
    const run = await waymark(h.store.env, 'import', '--account', account, '--check', crlf);
    expect(run.stderr).toBe('Dry run: nothing written.\n');
    expect(run.code).toBe(0);
  });

  it('follows edited reference links: a label changed and a link removed change the bit, in one event', async () => {
    const account = await h.services.auth.createAccount('links');
    await waymark(h.store.env, 'import', '--account', account, exported);
    const edited = copyOf(exported);
    const forms = join(edited, 'bits/fill-the-forms.md');
    writeFileSync(forms, readFileSync(forms, 'utf8').replace('    label: Before you type\n  - file: ../references/glossary.md\n', '    label: Read it first\n'));
    const before = await eventCount(h.store.store, account);
    const run = await waymark(h.store.env, 'import', '--account', account, edited);
    expect(run.stdout).toContain('bits: 0 added, 1 changed, 0 archived, 5 unchanged\n  ~ bits/fill-the-forms.md\n');
    expect(await eventCount(h.store.store, account)).toBe(before + 1);
    const back = tempDir();
    await waymark(h.store.env, 'export', '--account', account, '--out', back);
    expect(readTree(back)['bits/fill-the-forms.md']).toContain('references:\n  - file: ../references/security-policy.md\n    label: Read it first\n---\n');
  });

  it('archives the bit of a deleted file only with --prune', async () => {
    const account = await h.services.auth.createAccount('prune');
    await waymark(h.store.env, 'import', '--account', account, exported);
    const edited = copyOf(exported);
    const doneToo = pathOf('Done!');
    unlinkSync(join(edited, doneToo));
    const ops = join(edited, 'bits/ops-setup.md');
    writeFileSync(ops, readFileSync(ops, 'utf8').replace(`\n[→](bit-connection:${doneToo.slice('bits/'.length)})\n`, '\n'));
    const kept = await waymark(h.store.env, 'import', '--account', account, edited);
    expect(kept.stdout).toContain('bits: 0 added, 1 changed, 0 archived, 4 unchanged\n');
    const pruned = await waymark(h.store.env, 'import', '--account', account, '--prune', edited);
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/^bits: 0 added, 0 changed, 1 archived, 5 unchanged\n {2}- Done! \([0-9a-f-]{36}\)\n/);
    expect(await waymark(h.store.env, 'import', '--account', account, '--prune', '--check', edited)).toMatchObject({ code: 0 });
    // The file back (a git revert): the bit is active again, and the connection to it is back.
    const restored = await waymark(h.store.env, 'import', '--account', account, exported);
    expect(restored.stdout).toContain('bits: 0 added, 2 changed, 0 archived, 4 unchanged\n');
    expect(restored.stdout).toContain(`connections: 1 added, 0 removed\n  + bits/ops-setup.md → ${doneToo}\n`);
    expect(await waymark(h.store.env, 'import', '--account', account, '--check', exported)).toMatchObject({ code: 0 });
  });

  it('writes all or nothing: a refusal met while writing rolls back the writes before it', async () => {
    const account = await h.services.auth.createAccount('all or nothing');
    await waymark(h.store.env, 'import', '--account', account, exported);
    // A bit and an active flow starting at it, neither in the folder: pruning the bit is refused.
    const operator = operatorActor(account);
    const extra = await h.services.bits.add(operator, { bit_title: 'Not in the folder', bit_body: 'x' });
    await h.services.flows.create(operator, { flow_title: 'Other flow', start_bit_id: extra.bit_id });
    const edited = copyOf(exported);
    const forms = join(edited, 'bits/fill-the-forms.md');
    writeFileSync(forms, readFileSync(forms, 'utf8').replace('title: Fill the forms\n', 'title: Renamed first\n'));
    const before = await eventCount(h.store.store, account);
    const run = await waymark(h.store.env, 'import', '--account', account, '--prune', edited);
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toMatch(/^waymark: Bit [0-9a-f-]{36} is the start bit of active flows/);
    expect(await eventCount(h.store.store, account)).toBe(before);
    const back = tempDir();
    await waymark(h.store.env, 'export', '--account', account, '--out', back);
    expect(readTree(back)['bits/fill-the-forms.md']).toContain('title: Fill the forms\n');
  });

  describe('refuses a bad folder whole, naming file and line, writing nothing', () => {
    const refused = async (dir: string) => {
      const account = await h.services.auth.createAccount('refused');
      const run = await waymark(h.store.env, 'import', '--account', account, dir);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(await eventCount(h.store.store, account)).toBe(1);
      return run.stderr;
    };

    it('front matter that is not YAML', async () => {
      const dir = copyOf(exported);
      const file = join(dir, 'bits/ops-setup.md');
      writeFileSync(file, readFileSync(file, 'utf8').replace('title: Ops setup', 'title: [Ops setup'));
      // The line the YAML parser finds the sequence unclosed at: the one after `title: [Ops setup`.
      expect(await refused(dir)).toMatch(/^bits\/ops-setup\.md:4: VALIDATION_ERROR not YAML: Flow sequence in block collection must be sufficiently indented and end with a \]/m);
    });

    it('a connection to a file that does not exist, and a citation of one', async () => {
      const dir = copyOf(exported);
      const file = join(dir, 'bits/welcome-aboard.md');
      const text = readFileSync(file, 'utf8').replace('bit-connection:ops-setup.md', 'bit-connection:nowhere.md').replace('references/security-policy.md', 'references/gone.md');
      writeFileSync(file, text);
      const line = text.split('\n').findIndex((l) => l.includes('gone.md')) + 1;
      // A file's first problem stops its conversion, as a tool call stops at its first.
      expect(await refused(dir)).toContain(`bits/welcome-aboard.md:${line}: REFERENCE_NOT_FOUND line `);
    });

    it('a connection to a missing file', async () => {
      const dir = copyOf(exported);
      const file = join(dir, 'bits/ops-setup.md');
      const text = readFileSync(file, 'utf8').replace(/bit-connection:done-[0-9a-f]{8}\.md/, 'bit-connection:nowhere.md');
      writeFileSync(file, text);
      const line = text.split('\n').findIndex((l) => l.includes('nowhere.md')) + 1;
      expect(await refused(dir)).toContain(`bits/ops-setup.md:${line}: BIT_NOT_FOUND line `);
    });

    it('two files of one record, and two names one file system takes for one', async () => {
      const dir = copyOf(exported);
      cpSync(join(dir, 'bits/ops-setup.md'), join(dir, 'bits/ops-setup-copy.md'));
      writeFileSync(join(dir, 'bits/Glossary.md'), '---\ntitle: x\n---\n');
      cpSync(join(dir, 'references/glossary.md'), join(dir, 'references/Glossary.md'));
      const stderr = await refused(dir);
      expect(stderr).toMatch(/^bits\/ops-setup\.md:2: VALIDATION_ERROR id [0-9a-f-]{36} is bits\/ops-setup-copy\.md's too/m);
      expect(stderr).toContain('references/glossary.md: VALIDATION_ERROR collides with references/Glossary.md');
    });

    it('a symbolic link out of the folder', async () => {
      const dir = copyOf(exported);
      const secret = join(tempDir(), 'secret.md');
      writeFileSync(secret, '---\ntitle: Secret\n---\nNot yours.\n');
      symlinkSync(secret, join(dir, 'bits/secret.md'));
      expect(await refused(dir)).toContain('bits/secret.md: VALIDATION_ERROR a symbolic link: links are not followed');
    });

    it('a 100 MB file, refused by its size before it is read', async () => {
      const dir = copyOf(exported);
      writeFileSync(join(dir, 'bits/huge.md'), '');
      truncateSync(join(dir, 'bits/huge.md'), 100 * 1024 * 1024);
      expect(await refused(dir)).toContain('waymark: bits/huge.md is over the bound of 9437184 bytes in one file');
    });

    it('a folder of more than 10,000 files, refused while it is listed', async () => {
      const dir = copyOf(exported);
      mkdirSync(join(dir, 'notes'));
      for (let i = 0; i < 10_001; i++) writeFileSync(join(dir, 'notes', `${i}.txt`), '');
      expect(await refused(dir)).toContain('waymark: The folder is over the bound of 5000 files');
    });

    it('a folder without its manifest, and a flow whose start bit has no file', async () => {
      const dir = copyOf(exported);
      unlinkSync(join(dir, 'waymark.json'));
      const flow = join(dir, 'flows/onboarding.yaml');
      writeFileSync(flow, readFileSync(flow, 'utf8').replace('../bits/welcome-aboard.md', '../bits/welcome.md'));
      const stderr = await refused(dir);
      expect(stderr).toContain('waymark.json: VALIDATION_ERROR the folder has no waymark.json');
      expect(stderr).toMatch(/^flows\/onboarding\.yaml:\d+: FLOW_START_BIT_INVALID start_bit '\.\.\/bits\/welcome\.md' names no bit file/m);
    });
  });
});
