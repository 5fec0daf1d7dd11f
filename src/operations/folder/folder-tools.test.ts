/**
 * export_folder and import_folder (issue 30) through the real SDK client and over REST: a flow's folder answered
 * inline goes into another account and comes back the same; a dry run writes nothing; a bad folder is refused whole
 * with each problem's file, line and tool code; a scope-limited token imports only into its scope; the inline answer
 * is bounded; each tool's prompt stays within 300 tokens.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { writeCorpus, type Corpus } from '../../../test/folder-fixtures.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import type { Exported, ImportPlan } from '../../services/folder/shapes.js';

describe.each(ENGINES)('export_folder and import_folder on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let corpus: Corpus;
  let other: Principal;

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    corpus = await writeCorpus(h);
    other = await h.principal({ accountId: await h.services.auth.createAccount('other') });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('answers a flow\'s folder inline, which imports into another account and exports back the same', async () => {
    const folder = await h.owner.client.ok<Exported>('export_folder', { flow_id: corpus.flowId });
    expect(folder.left_out).toEqual([]);
    // The bits the flow reaches from its start bit: all six.
    expect(folder.files.map((f) => f.path)).toEqual([
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
    expect(folder.files.find((f) => f.path === 'waymark.json')?.content).toBe('{\n  "format": "waymark-folder",\n  "version": 1,\n  "contents": "flow"\n}\n');
    const dry = await other.client.ok<ImportPlan>('import_folder', { files: folder.files, dry_run: true });
    expect(dry).toMatchObject({ dry_run: true, changed: true, bits: { changed: [], unchanged: 0 }, flows: { added: ['flows/onboarding.yaml'] } });
    expect(dry.bits.added).toEqual(folder.files.filter((f) => f.path.startsWith('bits/')).map((f) => f.path));
    expect((await other.client.ok<{ bits: unknown[] }>('list_bits', {})).bits).toEqual([]);
    const plan = await other.client.ok<ImportPlan>('import_folder', { files: folder.files });
    expect(plan).toEqual({ ...dry, dry_run: false });
    const [flow] = (await other.client.ok<{ flows: Array<{ flow_id: string }> }>('list_flows', {})).flows;
    const back = await other.client.ok<Exported>('export_folder', { flow_id: flow!.flow_id });
    // In one store the copy takes ids of its own (and so do the names its two Done bits take from them).
    const body = (files: Exported['files']) => files.map((f) => `${f.path}\n${f.content.replace(/^(id: | {2}"id": ).*$/m, '')}`.replace(/done-[0-9a-f]{8}\.md/g, 'done-….md')).sort();
    expect(body(back.files)).toEqual(body(folder.files));
    expect((await other.client.ok<ImportPlan>('import_folder', { files: folder.files })).changed).toBe(false);
  });

  it('refuses a bad folder whole: every problem with its file, line and the tool\'s code', async () => {
    const folder = await h.owner.client.ok<Exported>('export_folder', {});
    const files = folder.files.map((f) =>
      f.path === 'bits/fill-the-forms.md' ? { ...f, content: f.content.replace('    props:\n      maxLength: 500', '    props:\n      colour: red\n      maxLength: 500') } : f.path === 'bits/ops-setup.md' ? { ...f, content: f.content.replace('title: Ops setup', 'title: ""') } : f,
    );
    const error = await other.client.fail('import_folder', { files });
    expect(error).toMatchObject({ code: 'IMPORT_INVALID', status: 422 });
    const problems = error.details?.problems as Array<{ file: string; line: number; code: string }>;
    expect(problems.map((p) => [p.file, p.code])).toEqual([
      ['bits/fill-the-forms.md', 'UNKNOWN_ELEMENT_PROP'],
      ['bits/ops-setup.md', 'VALIDATION_ERROR'],
    ]);
    expect(problems[1]!.line).toBe(3);
  });

  it('holds a scope-limited token to its scope, and bounds what it answers inline', async () => {
    const scopeId = await h.services.auth.createScope(h.accountId, 'Team');
    const scoped = await h.principal({ scopeId });
    const folder = await h.owner.client.ok<Exported>('export_folder', { flow_id: corpus.flowId });
    expect(await scoped.client.fail('import_folder', { files: folder.files })).toMatchObject({ code: 'FORBIDDEN' });
    const plan = await scoped.client.ok<ImportPlan>('import_folder', { files: folder.files, scope_id: scopeId });
    expect(plan.bits.added).toHaveLength(6);
    const large = [{ path: 'bits/large.md', content: `---\ntitle: Large\n---\n${'x'.repeat(10 * 1024 * 1024)}\n` }];
    expect(await scoped.client.fail('import_folder', { files: large, scope_id: scopeId })).toMatchObject({ code: 'FOLDER_TOO_LARGE', status: 413, details: { file: 'bits/large.md' } });
  });

  it('is served over REST: GET /api/v1/export and POST /api/v1/import', async () => {
    const auth = { authorization: `Bearer ${h.owner.token}` };
    const exported = (await (await fetch(`${web.origin}/api/v1/export?flow_id=${corpus.flowId}`, { headers: auth })).json()) as { success: boolean; data: Exported };
    expect(exported.success).toBe(true);
    const res = await fetch(`${web.origin}/api/v1/import`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ files: exported.data.files, dry_run: true }) });
    expect(((await res.json()) as { data: ImportPlan }).data).toMatchObject({ changed: false, bits: { unchanged: 6 } });
  });

  it.each(['export_folder', 'import_folder'])('%s costs at most 300 tokens of a prompt (name, description, input schema)', async (name) => {
    const { tools } = await h.owner.client.client.listTools();
    const tool = tools.find((t) => t.name === name);
    expect(encode(JSON.stringify({ name: tool?.name, description: tool?.description, inputSchema: tool?.inputSchema })).length).toBeLessThanOrEqual(300);
  });
});
