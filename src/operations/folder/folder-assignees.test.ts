/**
 * A bit's assignee and expected duration in a folder (issue 27), through the real SDK client on both engines: export
 * names a person by email and a group by name; another account with its own people and group of those names imports
 * the folder and its bits name them; a second import changes nothing; a name the account does not have is a problem
 * of the file's line, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import type { Exported, ImportPlan } from '../../services/folder/shapes.js';

describe.each(ENGINES)('assignees in a folder on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  /** An account with a person of this email and a group of this name; its Admin agent. */
  async function team(name: string) {
    const accountId = name === 'home' ? h.accountId : await h.services.auth.createAccount(name);
    const admin = name === 'home' ? h.owner : await h.principal({ accountId });
    const actor = (await h.services.auth.authenticate(admin.token))!;
    const person = await h.services.auth.createToken({ accountId, permission: 'edit', capabilities: ['waymark.run'], kind: 'person', name: `Ada of ${name}`, email: 'ada@example.com' });
    const group = await h.services.groups.create(actor, { name: 'Reviewers' });
    return { admin, person: person.principalId, group: group.group_id };
  }

  it('exports people by email and groups by name, and imports them as the other account\'s own', async () => {
    const home = await team('home');
    await h.owner.client.ok('add_bit', { bit_title: 'Welcome', bit_body: 'Say hello.', assignee: `person:${home.person}`, expected_duration: 'P1D' });
    await h.owner.client.ok('add_bit', { bit_title: 'Review', bit_body: 'Check it.', assignee: 'group:Reviewers', expected_duration: 'PT4H' });
    await h.owner.client.ok('add_bit', { bit_title: 'Kick-off', bit_body: 'Begin.', assignee: 'starter' });
    const folder = await h.owner.client.ok<Exported>('export_folder', {});
    const fileOf = (title: string) => folder.files.find((f) => f.content.includes(`title: ${title}`))!.content;
    expect(fileOf('Welcome')).toContain('assignee: person:ada@example.com\nexpected_duration: P1D\n');
    expect(fileOf('Review')).toContain('assignee: group:Reviewers\nexpected_duration: PT4H\n');
    expect(fileOf('Kick-off')).toContain('assignee: starter\n');
    expect(fileOf('Welcome')).not.toContain(home.person);

    const away = await team('away');
    const plan = await away.admin.client.ok<ImportPlan>('import_folder', { files: folder.files });
    expect(plan.bits.added).toHaveLength(3);
    // Another account's bits take ids of their own: found by title.
    const listed = await away.admin.client.ok<{ bits: Array<{ bit_id: string; bit_title: string }> }>('list_bits', {});
    const idOf = (title: string) => listed.bits.find((bit) => bit.bit_title === title)!.bit_id;
    const a = { bit_id: idOf('Welcome') };
    const b = { bit_id: idOf('Review') };
    const welcome = await away.admin.client.ok<Record<string, unknown>>('get_bit', { bit_id: a.bit_id });
    expect([welcome.assignee, welcome.assignee_name, welcome.expected_duration]).toEqual([`person:${away.person}`, 'Ada of away', 'P1D']);
    const review = await away.admin.client.ok<Record<string, unknown>>('get_bit', { bit_id: b.bit_id });
    expect([review.assignee, review.assignee_name]).toEqual([`group:${away.group}`, 'Reviewers']);
    expect((await away.admin.client.ok<ImportPlan>('import_folder', { files: folder.files })).changed).toBe(false);

    // A changed file changes the bit: its group taken away, its duration another.
    const edited = folder.files.map((f) => (f.content.includes('title: Review') ? { ...f, content: f.content.replace('assignee: group:Reviewers\n', '').replace('PT4H', 'P3D') } : f));
    expect((await away.admin.client.ok<ImportPlan>('import_folder', { files: edited })).bits.changed).toHaveLength(1);
    const changed = await away.admin.client.ok<Record<string, unknown>>('get_bit', { bit_id: b.bit_id });
    expect([changed.assignee, changed.expected_duration]).toEqual([null, 'P3D']);
  });

  it('refuses a folder naming a person or group the account does not have, or a month, with the file and line', async () => {
    const elsewhere = await h.principal({ accountId: await h.services.auth.createAccount('empty') });
    const manifest = { path: 'waymark.json', content: '{"format":"waymark-folder","version":1,"contents":"all"}' };
    const files = [
      manifest,
      { path: 'bits/one.md', content: '---\ntitle: One\nassignee: person:nobody@example.com\n---\nA step.\n' },
      { path: 'bits/two.md', content: '---\ntitle: Two\ncomplexity: low\nassignee: group:Nobody\n---\nA step.\n' },
    ];
    const refused = await elsewhere.client.fail('import_folder', { files });
    expect(refused.code).toBe('IMPORT_INVALID');
    const problems = (refused.details as { problems: Array<{ file: string; line: number; code: string; message: string }> }).problems;
    expect(problems.map((p) => [p.file, p.line, p.code])).toEqual([
      ['bits/one.md', 3, 'PRINCIPAL_NOT_FOUND'],
      ['bits/two.md', 4, 'GROUP_NOT_FOUND'],
    ]);
    // A file's own form is checked as it is read, before any name is looked up.
    const month = await elsewhere.client.fail('import_folder', { files: [manifest, { path: 'bits/three.md', content: '---\ntitle: Three\nexpected_duration: P1M\n---\nA step.\n' }] });
    const [problem] = (month.details as { problems: Array<{ file: string; line: number; code: string; message: string }> }).problems;
    expect([problem.file, problem.line, problem.code, problem.message]).toEqual(['bits/three.md', 3, 'VALIDATION_ERROR', expect.stringMatching(/write days, e\.g\. P2D/)]);
    expect((await elsewhere.client.ok<{ bits: unknown[] }>('list_bits', {})).bits).toEqual([]);
  });
});
