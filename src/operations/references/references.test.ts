import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { makeBit, makeReference, para } from '../../../test/reference-fixtures.js';
import type { ReferenceView as Reference } from '../../services/references/shapes.js';

describe.each(ENGINES)('create_reference, update_reference, get_reference on %s', (engine) => {
  let h: Harness;
  let scopeA: string;
  let scopeB: string;
  let scoped: Principal;
  beforeAll(async () => {
    h = await startHarness(engine);
    scopeA = await h.services.auth.createScope(h.accountId, 'A');
    scopeB = await h.services.auth.createScope(h.accountId, 'B');
    scoped = await h.principal({ permission: 'edit', scopeId: scopeA });
  });
  afterAll(async () => h.close());

  const get = (id: string, p: Principal = h.owner) => p.client.ok<Reference>('get_reference', { reference_id: id });

  it('creates a reference and returns every field, content as Slate, the caller as author', async () => {
    const content = [
      { type: 'h1', children: [{ text: 'Expense policy' }] },
      { type: 'p', children: [{ text: 'Receipts are ' }, { text: 'required', bold: true }, { text: ' for every claim.' }] },
    ];
    const created = await h.owner.client.ok<{ reference_id: string; last_modified_date_time_utc: string }>('create_reference', {
      reference_title: '  Expenses  ',
      reference_content: content,
      content_format: 'slate',
      reference_categories: ['finance', 'policy'],
    });
    expect(Object.keys(created).sort()).toEqual(['last_modified_date_time_utc', 'reference_id']);
    expect(created.reference_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await get(created.reference_id)).toEqual({
      reference_id: created.reference_id,
      reference_title: 'Expenses',
      reference_abstract: 'Expense policy Receipts are required for every claim.',
      reference_content: content,
      content_format: 'slate',
      reference_categories: ['finance', 'policy'],
      scope_id: null,
      is_active: true,
      author_principal_id: h.owner.principalId,
      created_date_time_utc: created.last_modified_date_time_utc,
      last_modified_date_time_utc: created.last_modified_date_time_utc,
    });
  });

  it('derives the abstract from whole sentences of the body, about 500 characters', async () => {
    const sentence = 'This sentence is fifty characters long, with space. ';
    const id = await makeReference(h.owner.client, { reference_content: para(sentence.repeat(30)) });
    const { reference_abstract } = await get(id);
    // Ten sentences and their spaces would be 519 characters: nine fit in 500.
    expect(reference_abstract).toBe(sentence.repeat(9).trim());
    const oneLong = await makeReference(h.owner.client, { reference_content: para('word '.repeat(400)) });
    const cut = (await get(oneLong)).reference_abstract ?? '';
    expect(cut.endsWith('word…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(500);
  });

  it('keeps a written abstract, stores an empty one as null, and takes a JSON-stringified body', async () => {
    const written = await makeReference(h.owner.client, { reference_abstract: 'Mine.' });
    expect((await get(written)).reference_abstract).toBe('Mine.');
    const empty = await makeReference(h.owner.client, { reference_abstract: '' });
    expect((await get(empty)).reference_abstract).toBeNull();
    const stringified = await makeReference(h.owner.client, { reference_content: JSON.stringify(para('From a string.')) });
    expect((await get(stringified)).reference_content).toEqual(para('From a string.'));
  });

  it('refuses invalid fields with VALIDATION_ERROR', async () => {
    const base = { reference_title: 'T', reference_content: para('x') };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, reference_title: '   ' }, 'reference_title'],
      [{ ...base, reference_title: 'x'.repeat(257) }, 'reference_title'],
      [{ reference_content: para('x') }, 'reference_title'],
      [{ reference_title: 'T' }, 'reference_content'],
      [{ ...base, reference_content: [] }, 'reference_content'],
      [{ ...base, reference_content: 'not json' }, 'reference_content'],
      [{ ...base, reference_content: [{ type: 'p' }] }, 'reference_content[0]'],
      [{ ...base, reference_content: [{ type: 'p', children: [{ text: 5 }] }] }, 'reference_content[0].children[0].text'],
      [{ ...base, content_format: 'markdown' }, 'content_format'],
      [{ ...base, reference_abstract: 'x'.repeat(2049) }, 'reference_abstract'],
      [{ ...base, reference_categories: Array.from({ length: 51 }, (_, i) => `c${i}`) }, 'reference_categories'],
      [{ ...base, reference_categories: ['x'.repeat(129)] }, 'reference_categories[0]'],
      [{ ...base, surprise: 1 }, ''],
    ];
    for (const [args, path] of cases) {
      const error = await h.owner.client.fail('create_reference', args);
      expect(error.code, JSON.stringify(args).slice(0, 80)).toBe('VALIDATION_ERROR');
      expect(error.status).toBe(422);
      const paths = (error.details?.issues as Array<{ path: string }>).map((i) => i.path);
      expect(paths).toContain(path);
    }
    expect(await h.owner.client.ok('create_reference', { ...base, reference_abstract: 'x'.repeat(2048), reference_title: 'x'.repeat(256), reference_categories: Array.from({ length: 50 }, () => 'y'.repeat(128)) })).toBeTruthy();
  });

  it('refuses interactive elements anywhere in the content: INTERACTIVE_ELEMENT_NOT_ALLOWED', async () => {
    const textArea = { type: 'text-area', id: 'e1', props: { label: 'Notes' }, children: [{ text: '' }] };
    const inline = { type: 'p', children: [{ text: 'See ' }, { type: 'link-inline', id: 'e2', props: { url: 'https://example.com' }, children: [{ text: 'this' }] }, { text: '' }] };
    const byStepName = { type: 'DatePicker', children: [{ text: '' }] };
    for (const content of [[textArea], [{ type: 'blockquote', children: [inline] }], [byStepName]]) {
      const error = await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: content });
      expect(error.code).toBe('INTERACTIVE_ELEMENT_NOT_ALLOWED');
      expect(error.status).toBe(422);
    }
    const id = await makeReference(h.owner.client);
    expect((await h.owner.client.fail('update_reference', { reference_id: id, reference_content: [textArea] })).code).toBe('INTERACTIVE_ELEMENT_NOT_ALLOWED');
  });

  it('keeps links and media, and refuses an unsafe url: VALIDATION_ERROR', async () => {
    const content = [{ type: 'p', children: [{ text: 'See ' }, { type: 'a', id: '3d6f2a0e-8b1c-4f5a-9e2d-7c4b1a0f6e21', url: 'https://example.com', children: [{ text: 'the site' }] }, { text: '.' }] }];
    const id = await makeReference(h.owner.client, { reference_content: content });
    expect((await get(id)).reference_content).toEqual(content);
    const evil = [{ type: 'p', children: [{ type: 'a', url: 'java\tscript:alert(1)', children: [{ text: 'x' }] }] }];
    const error = await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: evil });
    expect([error.code, error.status]).toEqual(['VALIDATION_ERROR', 422]);
  });

  it('holds the same document model as bit bodies: unknown node types and bit connections are refused, links get ids', async () => {
    for (const content of [
      [{ type: 'paragraph', children: [{ text: 'x' }] }],
      [{ type: 'bit-connection', id: null, target_bit_id: '3d6f2a0e-8b1c-4f5a-9e2d-7c4b1a0f6e21', label: null, params: {}, children: [{ text: '' }] }],
    ]) {
      expect((await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: content })).code).toBe('VALIDATION_ERROR');
    }
    const id = await makeReference(h.owner.client, { reference_content: [{ type: 'p', children: [{ type: 'a', url: 'https://example.com', children: [{ text: 'site' }] }] }] });
    const [p] = (await get(id)).reference_content as Array<{ children: Array<{ id?: string }> }>;
    expect(p.children[0].id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a body nested too deep (VALIDATION_ERROR) or too large (BODY_TOO_LARGE)', async () => {
    let node: Record<string, unknown> = { text: 'deep' };
    for (let i = 0; i < 70; i++) node = { type: 'blockquote', children: [node] };
    expect((await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: [node] })).code).toBe('VALIDATION_ERROR');
    const big = para('x'.repeat(8 * 1024 * 1024));
    const error = await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: big });
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(error.status).toBe(413);
  });

  it('checks scope_id: unknown, another account\'s or invisible is SCOPE_NOT_FOUND; a scope-limited writer writes only in its scope', async () => {
    const other = await h.services.auth.createAccount('other');
    const otherScope = await h.services.auth.createScope(other, 'theirs');
    for (const scope_id of ['00000000-0000-4000-8000-000000000000', otherScope]) {
      expect((await h.owner.client.fail('create_reference', { reference_title: 'T', reference_content: para('x'), scope_id })).code).toBe('SCOPE_NOT_FOUND');
    }
    expect((await scoped.client.fail('create_reference', { reference_title: 'T', reference_content: para('x'), scope_id: scopeB })).code).toBe('SCOPE_NOT_FOUND');
    const forbidden = await scoped.client.fail('create_reference', { reference_title: 'T', reference_content: para('x') });
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.status).toBe(403);
    const id = await makeReference(scoped.client, { scope_id: scopeA });
    expect((await get(id)).scope_id).toBe(scopeA);
    expect((await get(id)).author_principal_id).toBe(scoped.principalId);
  });

  it('needs author and Edit to write, read or author to read: FORBIDDEN otherwise', async () => {
    const viewer = await h.principal({ permission: 'view', capabilities: ['read'] });
    const reader = await h.principal({ permission: 'edit', capabilities: ['read'] });
    const id = await makeReference(h.owner.client);
    for (const p of [viewer, reader]) {
      const error = await p.client.fail('create_reference', { reference_title: 'T', reference_content: para('x') });
      expect(error.code).toBe('FORBIDDEN');
      expect((await p.client.fail('update_reference', { reference_id: id, reference_title: 'New' })).code).toBe('FORBIDDEN');
      expect((await get(id, p)).reference_id).toBe(id);
    }
    const runner = await h.principal({ capabilities: ['run'] });
    expect((await runner.client.fail('get_reference', { reference_id: id })).code).toBe('FORBIDDEN');
  });

  it('hides another account\'s and an invisible scope\'s references: REFERENCE_NOT_FOUND', async () => {
    const otherAccount = await h.services.auth.createAccount('elsewhere');
    const stranger = await h.principal({ accountId: otherAccount });
    const theirs = await makeReference(stranger.client);
    const inB = await makeReference(h.owner.client, { scope_id: scopeB });
    const accountLevel = await makeReference(h.owner.client);
    for (const [p, id] of [[h.owner, theirs], [scoped, inB], [h.owner, '00000000-0000-4000-8000-000000000000']] as const) {
      const error = await p.client.fail('get_reference', { reference_id: id });
      expect(error.code).toBe('REFERENCE_NOT_FOUND');
      expect(error.status).toBe(404);
      expect((await p.client.fail('update_reference', { reference_id: id, reference_title: 'X' })).code).toBe('REFERENCE_NOT_FOUND');
    }
    // A malformed id is a wrong input, not an unknown record.
    expect(await h.owner.client.fail('get_reference', { reference_id: 'not-a-uuid' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { issues: [{ path: 'reference_id', message: 'must be a UUID (8-4-4-4-12 hexadecimal digits), as the tools return ids' }] } });
    // Visible to a scope-limited writer, but not its to change.
    expect((await get(accountLevel, scoped)).reference_id).toBe(accountLevel);
    expect((await scoped.client.fail('update_reference', { reference_id: accountLevel, reference_title: 'X' })).code).toBe('FORBIDDEN');
  });

  it('update_reference changes only what is given, replaces categories whole and advances last_modified', async () => {
    const id = await makeReference(h.owner.client, { reference_title: 'Old', reference_categories: ['a', 'b'], reference_abstract: 'Kept.' });
    const before = await get(id);
    const first = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_reference', {
      reference_id: id,
      reference_categories: ['c'],
      last_modified_date_time_utc: '1999-01-01T00:00:00.000Z',
    });
    const after = await get(id);
    expect(after).toEqual({ ...before, reference_categories: ['c'], last_modified_date_time_utc: first.last_modified_date_time_utc });
    expect(first.last_modified_date_time_utc > before.last_modified_date_time_utc).toBe(true);
    const second = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_reference', { reference_id: id, reference_title: 'New', reference_content: para('Fresh words.') });
    expect(second.last_modified_date_time_utc > first.last_modified_date_time_utc).toBe(true);
    const last = await get(id);
    expect(last.reference_title).toBe('New');
    expect(last.reference_content).toEqual(para('Fresh words.'));
    expect(last.reference_abstract).toBe('Kept.');
    expect(last.created_date_time_utc).toBe(before.created_date_time_utc);
    expect((await h.owner.client.fail('update_reference', { reference_id: id, reference_title: '' })).code).toBe('VALIDATION_ERROR');
    await h.owner.client.ok('update_reference', { reference_id: id, reference_abstract: '' });
    expect((await get(id)).reference_abstract).toBeNull();
  });

  it('a derived abstract follows new content; the search text follows every write', async () => {
    const id = await makeReference(h.owner.client, { reference_content: para('Zanzibar harbours are busy.') });
    await h.owner.client.ok('update_reference', { reference_id: id, reference_content: para('Quokka habitats are small.') });
    expect((await get(id)).reference_abstract).toBe('Quokka habitats are small.');
    const search = (query: string) => h.owner.client.ok<{ results: Array<{ reference_id: string }> }>('search_references', { query });
    expect((await search('zanzibar')).results).toEqual([]);
    expect((await search('quokka')).results.map((r) => r.reference_id)).toEqual([id]);
    await h.owner.client.ok('update_reference', { reference_id: id, reference_title: 'Wombat notes' });
    expect((await search('wombat')).results.map((r) => r.reference_id)).toEqual([id]);
  });

  it('archives with is_active:false unless a bit links it (REFERENCE_IN_USE); never un-archives', async () => {
    const id = await makeReference(h.owner.client);
    const bit1 = await makeBit(h);
    const bit2 = await makeBit(h);
    await h.owner.client.ok('link_reference', { bit_id: bit1, reference_id: id });
    await h.owner.client.ok('link_reference', { bit_id: bit2, reference_id: id });
    const inUse = await h.owner.client.fail('update_reference', { reference_id: id, is_active: false });
    expect(inUse.code).toBe('REFERENCE_IN_USE');
    expect(inUse.status).toBe(409);
    expect(inUse.details?.bit_ids).toEqual([bit1, bit2].sort());
    expect((await get(id)).is_active).toBe(true);

    // is_active:true on an active reference changes nothing, not even the timestamp.
    const unchanged = await get(id);
    const same = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_reference', { reference_id: id, is_active: true });
    expect(same.last_modified_date_time_utc).toBe(unchanged.last_modified_date_time_utc);

    await h.owner.client.ok('unlink_reference', { bit_id: bit1, reference_id: id });
    await h.owner.client.ok('unlink_reference', { bit_id: bit2, reference_id: id });
    const archived = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_reference', { reference_id: id, is_active: false });
    expect(archived.last_modified_date_time_utc > unchanged.last_modified_date_time_utc).toBe(true);
    expect((await get(id)).is_active).toBe(false);
    const refused = await h.owner.client.fail('update_reference', { reference_id: id, is_active: true });
    expect(refused.code).toBe('REFERENCE_UNARCHIVE_UNSUPPORTED');
    expect(refused.status).toBe(422);
    expect((await get(id)).is_active).toBe(false);
  });
});
