import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { makeReference, para } from '../../../test/reference-fixtures.js';
import type { ReferenceSearchPage as Page } from '../../services/references/shapes.js';

describe.each(ENGINES)('search_references on %s', (engine) => {
  let h: Harness;
  let scopeA: string;
  let scopeB: string;
  let scoped: Principal;
  const ids: Record<string, string> = {};
  const search = (args: Record<string, unknown>, p: Principal = h.owner) => p.client.ok<Page>('search_references', args);
  const found = async (args: Record<string, unknown>, p: Principal = h.owner) => (await search(args, p)).results.map((r) => r.reference_id);

  beforeAll(async () => {
    h = await startHarness(engine);
    scopeA = await h.services.auth.createScope(h.accountId, 'A');
    scopeB = await h.services.auth.createScope(h.accountId, 'B');
    scoped = await h.principal({ permission: 'edit', scopeId: scopeA });
    const c = h.owner.client;
    // Ranking: the same word in the title, in the abstract, in the body.
    ids.inTitle = await makeReference(c, { reference_title: 'Marmalade recipes', reference_abstract: 'Cooking notes.', reference_content: para('Oranges and sugar, boiled slowly.') });
    ids.inAbstract = await makeReference(c, { reference_title: 'Preserves', reference_abstract: 'All about marmalade.', reference_content: para('Fruit and sugar, boiled slowly.') });
    ids.inBody = await makeReference(c, { reference_title: 'Breakfast', reference_abstract: 'Morning food.', reference_content: para('Toast with marmalade and butter, then coffee.') });
    ids.phrase = await makeReference(c, { reference_title: 'Claims', reference_content: para('Every expense claim needs a receipt attached before approval.'), reference_categories: ['finance'] });
    ids.words = await makeReference(c, { reference_title: 'Receipts', reference_content: para('Keep the receipt. Claims of any expense are reviewed monthly.'), reference_categories: ['finance', 'audit'] });
    ids.scopedA = await makeReference(c, { reference_title: 'Harbour rules A', reference_content: para('Pelican sightings in scope A.'), scope_id: scopeA, reference_categories: ['audit'] });
    ids.scopedB = await makeReference(c, { reference_title: 'Harbour rules B', reference_content: para('Pelican sightings in scope B.'), scope_id: scopeB });
    ids.account = await makeReference(c, { reference_title: 'Harbour rules', reference_content: para('Pelican sightings at account level.') });
    ids.archived = await makeReference(c, { reference_title: 'Old harbour rules', reference_content: para('Pelican sightings, archived.') });
    await c.ok('update_reference', { reference_id: ids.archived, is_active: false });
  });
  afterAll(async () => h.close());

  it('ranks a title match over an abstract match over a body match, with a highlighted snippet and a score', async () => {
    const { results, next_cursor } = await search({ query: 'marmalade' });
    expect(results.map((r) => r.reference_id)).toEqual([ids.inTitle, ids.inAbstract, ids.inBody]);
    expect(next_cursor).toBeNull();
    expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
    expect(results[1]!.score).toBeGreaterThan(results[2]!.score);
    expect(results[2]).toEqual({
      reference_id: ids.inBody,
      reference_title: 'Breakfast',
      reference_abstract: 'Morning food.',
      reference_categories: [],
      scope_id: null,
      is_active: true,
      snippet: expect.stringContaining('**marmalade**'),
      score: results[2]!.score,
    });
  });

  it('matches all plain words (stemmed) anywhere, and a quoted phrase only in order', async () => {
    expect((await found({ query: 'expense receipts' })).sort()).toEqual([ids.phrase, ids.words].sort());
    expect(await found({ query: '"expense claim"' })).toEqual([ids.phrase]);
    expect(await found({ query: '“expense claim” approval' })).toEqual([ids.phrase]);
    expect(await found({ query: '"claim expense"' })).toEqual([]);
    expect(await found({ query: 'expense nonexistentword' })).toEqual([]);
  });

  it('folds diacritics on both sides and marks the word as written in the snippet', async () => {
    const cafe = await makeReference(h.owner.client, { reference_title: 'Café Müller', reference_content: para('Coffee at the Café Müller in Köln, naïve résumé.') });
    for (const query of ['cafe', 'CAFÉ', 'café', 'muller', 'Müller', 'koln', 'naive resume', '"cafe muller"']) {
      expect(await found({ query }), query).toEqual([cafe]);
    }
    const [hit] = (await search({ query: 'cafe' })).results;
    expect(hit?.reference_title).toBe('Café Müller');
    expect(hit?.snippet).toContain('**Café**');
    expect(hit?.snippet).toContain('Müller in Köln');
    // Latin letters only, as SQLite's unicode61 tokenizer folds: other scripts keep their marks.
    const cyrillic = await makeReference(h.owner.client, { reference_title: 'Йогурт', reference_content: para('Йогурт и сыр.') });
    expect(await found({ query: 'йогурт' })).toEqual([cyrillic]);
    expect(await found({ query: 'иогурт' })).toEqual([]);
  });

  it('answers any input without a fault', async () => {
    const hostile = [
      '', '   ', '"', '""', '"unclosed phrase', 'AND', 'a OR b', 'NOT x', 'NEAR(a b)', '*', 'marm*', '^marmalade', 'title:marmalade',
      "'; DROP TABLE library_references; --", '\\', '(((', ')', '-marmalade', '!!!', '&|<->', ':*', 'the of and', '🙂 emoji', 'x'.repeat(1000),
      '\u0000', 'ü "ß" 中文',
    ];
    for (const query of hostile) {
      const envelope = await h.owner.client.call<Page>('search_references', { query });
      expect(envelope.success, `${JSON.stringify(query)} → ${JSON.stringify(envelope.error)}`).toBe(true);
    }
    expect(await found({ query: '-marmalade' })).toHaveLength(3);
    expect(await found({ query: 'the of and' })).toEqual([]);
    expect((await h.owner.client.fail('search_references', { query: 'x'.repeat(1001) })).code).toBe('VALIDATION_ERROR');
    expect((await h.owner.client.fail('search_references', {})).code).toBe('VALIDATION_ERROR');
  });

  it('filters by scope, categories (any of them) and archive state', async () => {
    expect((await found({ query: 'pelican' })).sort()).toEqual([ids.scopedA, ids.scopedB, ids.account].sort());
    expect((await found({ query: 'pelican', include_archived: true })).sort()).toEqual([ids.scopedA, ids.scopedB, ids.account, ids.archived].sort());
    const archived = (await search({ query: 'old harbour', include_archived: true })).results;
    expect(archived.map((r) => [r.reference_id, r.is_active])).toEqual([[ids.archived, false]]);
    expect(await found({ query: 'pelican', scope_id: scopeA })).toEqual([ids.scopedA]);
    expect((await found({ query: 'pelican', scope_id: null })).sort()).toEqual([ids.account]);
    expect((await found({ query: 'receipt', categories: ['audit'] }))).toEqual([ids.words]);
    expect((await found({ query: 'receipt', categories: ['finance', 'nothing'] })).sort()).toEqual([ids.phrase, ids.words].sort());
    expect(await found({ query: 'receipt', categories: ['nothing'] })).toEqual([]);
    expect((await h.owner.client.fail('search_references', { query: 'x', scope_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('SCOPE_NOT_FOUND');
  });

  it('shows a scope-limited principal its scope and the account level only', async () => {
    expect((await found({ query: 'pelican' }, scoped)).sort()).toEqual([ids.scopedA, ids.account].sort());
    expect(await found({ query: 'pelican', scope_id: scopeA }, scoped)).toEqual([ids.scopedA]);
    const error = await scoped.client.fail('search_references', { query: 'pelican', scope_id: scopeB });
    expect(error.code).toBe('SCOPE_NOT_FOUND');
    const viewer = await h.principal({ permission: 'view', capabilities: ['read'] });
    expect(await found({ query: 'marmalade' }, viewer)).toHaveLength(3);
  });

  it('never shows another account\'s references', async () => {
    const other = await h.services.auth.createAccount('other');
    const stranger = await h.principal({ accountId: other });
    const theirs = await makeReference(stranger.client, { reference_title: 'Marmalade of theirs' });
    expect(await found({ query: 'marmalade' })).not.toContain(theirs);
    expect(await found({ query: 'marmalade' }, stranger)).toEqual([theirs]);
  });

  it('pages with a cursor: every hit exactly once, also when all scores are equal', async () => {
    const twins: string[] = [];
    for (let i = 0; i < 23; i++) twins.push(await makeReference(h.owner.client, { reference_title: 'Twin', reference_content: para('Identical axolotl text.') }));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: Page = await search({ query: 'axolotl', limit: 5, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeLessThanOrEqual(5);
      seen.push(...page.results.map((r) => r.reference_id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
    expect([...seen].sort()).toEqual([...twins].sort());
    const full = await search({ query: 'axolotl', limit: 23 });
    expect(full.next_cursor).toBeNull();
    expect(full.results.map((r) => r.reference_id)).toEqual(seen);
  });

  it('pages every hit exactly once when references are written between pages (bm25 statistics move)', async () => {
    const zebras = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const filler = Array.from({ length: i % 7 }, (_, k) => `stripe${k}`).join(' ');
      zebras.add(await makeReference(h.owner.client, { reference_title: `Zebra ${i}`, reference_content: para(`The zebra grazes. ${filler}`) }));
    }
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('writer between pages') });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: Page = await search({ query: 'zebra', limit: 10, ...(cursor ? { cursor } : {}) });
      seen.push(...page.results.map((r) => r.reference_id));
      cursor = page.next_cursor ?? undefined;
      pages++;
      // Writes between pages: unrelated text in another account, and more text without the word here.
      await makeReference(stranger.client, { reference_title: `Unrelated ${pages}`, reference_content: para('Nothing to see, many words of other text.') });
      await makeReference(h.owner.client, { reference_title: `Elsewhere ${pages}`, reference_content: para('A long paragraph about giraffes, lions and the savannah at dusk.') });
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(30);
    expect(new Set(seen)).toEqual(zebras);
  });

  it('refuses a foreign or broken cursor and a limit out of range: VALIDATION_ERROR', async () => {
    const first = await search({ query: 'marmalade', limit: 1 });
    expect(first.next_cursor).not.toBeNull();
    const next = await search({ query: 'marmalade', limit: 1, cursor: first.next_cursor });
    expect(next.results.map((r) => r.reference_id)).toEqual([ids.inAbstract]);
    for (const args of [
      { query: 'pelican', cursor: first.next_cursor },
      { query: 'marmalade', include_archived: true, cursor: first.next_cursor },
      { query: 'marmalade', cursor: 'garbage' },
      { query: 'marmalade', cursor: Buffer.from('{"s":"x"}').toString('base64url') },
      { query: 'marmalade', limit: 0 },
      { query: 'marmalade', limit: 101 },
    ]) {
      const error = await h.owner.client.fail('search_references', args);
      expect(error.code, JSON.stringify(args)).toBe('VALIDATION_ERROR');
    }
    expect((await search({ query: 'marmalade', limit: 100 })).results).toHaveLength(3);
  });
});
