import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';

interface FlowPage {
  flows: Array<{ flow_id: string; flow_title: string; last_modified_date_time_utc: string }>;
  next_cursor: string | null;
}
interface BitPage {
  bits: Array<{ bit_id: string; bit_title: string; status: string; bit_categories: string[]; last_modified_date_time_utc: string }>;
  next_cursor: string | null;
}

describe.each(ENGINES)('list_flows and list_bits on %s', (engine) => {
  let h: Harness;
  let scopeId: string;
  let otherScope: string;
  const flows: Record<string, string> = {};
  const bits: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(engine);
    scopeId = await h.services.auth.createScope(h.accountId, 'team');
    otherScope = await h.services.auth.createScope(h.accountId, 'other');
    const bit = async (options: Parameters<typeof addTestBit>[1]) => (await addTestBit(h, options)).bit_id;
    bits.plain = await bit({ title: 'Plain step', categories: ['ops'] });
    bits.archived = await bit({ title: 'Old step', archived: true, categories: ['ops'] });
    bits.scoped = await bit({ scopeId, title: 'Team step', description: 'about 100%_done' });
    bits.hidden = await bit({ scopeId: otherScope, title: 'Hidden step' });
    // A category that contains another's JSON text must not match it (exact match of array values).
    bits.tricky = await bit({ title: 'Tricky', categories: ['a"ops"b', 'OPS'] });
    const foreignAccount = await h.services.auth.createAccount('foreign');
    await bit({ accountId: foreignAccount, title: 'Foreign step', categories: ['ops'] });
    const create = async (args: Record<string, unknown>) => (await h.owner.client.ok<{ flow_id: string }>('create_flow', args)).flow_id;
    flows.alpha = await create({ flow_title: 'Alpha onboarding', start_bit_id: bits.plain, flow_categories: ['hr'], priority: 'high' });
    flows.beta = await create({ flow_title: 'Beta', start_bit_id: bits.plain, flow_description: 'Customer ONBOARDING too', flow_categories: ['sales', 'hr'] });
    flows.gamma = await create({ flow_title: 'Gamma', start_bit_id: bits.scoped, scope_id: scopeId });
    flows.hidden = await create({ flow_title: 'Hidden', start_bit_id: bits.hidden, scope_id: otherScope });
    await h.owner.client.ok('update_flow', { flow_id: flows.beta, is_active: false });
    await h.owner.client.ok('review_flow', { flow_id: flows.gamma, review_status: 'approved' });
  });
  afterAll(async () => h.close());

  const titles = (page: FlowPage) => page.flows.map((f) => f.flow_title);

  it('lists every visible flow, most recently changed first', async () => {
    const page = await h.owner.client.ok<FlowPage>('list_flows', {});
    expect(titles(page)).toEqual(['Gamma', 'Beta', 'Hidden', 'Alpha onboarding']);
    expect(page.next_cursor).toBeNull();
    const times = page.flows.map((f) => f.last_modified_date_time_utc);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters flows by scope, is_active, review_status, priority, category and text', async () => {
    const list = async (args: Record<string, unknown>) => titles(await h.owner.client.ok<FlowPage>('list_flows', args));
    expect(await list({ scope_id: scopeId })).toEqual(['Gamma']);
    expect(await list({ scope_id: null })).toEqual(['Beta', 'Alpha onboarding']);
    expect(await list({ is_active: false })).toEqual(['Beta']);
    expect(await list({ is_active: true })).toEqual(['Gamma', 'Hidden', 'Alpha onboarding']);
    expect(await list({ review_status: 'approved' })).toEqual(['Gamma']);
    expect(await list({ priority: 'high' })).toEqual(['Alpha onboarding']);
    expect(await list({ category: 'hr' })).toEqual(['Beta', 'Alpha onboarding']);
    expect(await list({ category: 'HR' })).toEqual([]);
    expect(await list({ query: 'onBoarding' })).toEqual(['Beta', 'Alpha onboarding']);
    expect(await list({ query: 'onboarding', is_active: true })).toEqual(['Alpha onboarding']);
    expect(await list({ query: '%' })).toEqual([]);
  });

  it('pages with a cursor until next_cursor is null, without skips or repeats', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page: FlowPage = await h.owner.client.ok<FlowPage>('list_flows', { limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...titles(page));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual(['Gamma', 'Beta', 'Hidden', 'Alpha onboarding']);
    expect(pages).toBe(4);
    const two = await h.owner.client.ok<FlowPage>('list_flows', { limit: 2, category: 'hr' });
    expect(titles(two)).toEqual(['Beta', 'Alpha onboarding']);
    expect(two.next_cursor).toBeNull();
  });

  it('refuses a bad cursor, a bad limit and an invisible scope', async () => {
    for (const args of [{ cursor: 'nonsense' }, { limit: 0 }, { limit: 101 }, { limit: 1.5 }]) {
      expect((await h.owner.client.fail('list_flows', args)).code).toBe('VALIDATION_ERROR');
      expect((await h.owner.client.fail('list_bits', args)).code).toBe('VALIDATION_ERROR');
    }
    const limited = await h.principal({ permission: 'view', capabilities: ['read'], scopeId });
    for (const tool of ['list_flows', 'list_bits']) {
      expect((await limited.client.fail(tool, { scope_id: otherScope })).code).toBe('SCOPE_NOT_FOUND');
      expect((await h.owner.client.fail(tool, { scope_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('SCOPE_NOT_FOUND');
    }
  });

  it('a scope-limited token sees its scope and account level only; another account sees nothing of ours', async () => {
    const limited = await h.principal({ permission: 'view', capabilities: ['read'], scopeId });
    expect(titles(await limited.client.ok<FlowPage>('list_flows', {}))).toEqual(['Gamma', 'Beta', 'Alpha onboarding']);
    const bitTitles = (await limited.client.ok<BitPage>('list_bits', { status: 'any' })).bits.map((b) => b.bit_title);
    expect(bitTitles).not.toContain('Hidden step');
    expect(bitTitles).toContain('Team step');
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('stranger') });
    expect((await stranger.client.ok<FlowPage>('list_flows', {})).flows).toEqual([]);
    expect((await stranger.client.ok<BitPage>('list_bits', {})).bits).toEqual([]);
  });

  it('lists bits: active by default, status, scope, exact category and text filters', async () => {
    const list = async (args: Record<string, unknown>) => (await h.owner.client.ok<BitPage>('list_bits', args)).bits.map((b) => b.bit_title);
    expect(await list({})).toEqual(['Tricky', 'Hidden step', 'Team step', 'Plain step']);
    expect(await list({ status: 'archived' })).toEqual(['Old step']);
    expect(await list({ status: 'any' })).toEqual(['Tricky', 'Hidden step', 'Team step', 'Old step', 'Plain step']);
    expect(await list({ scope_id: scopeId })).toEqual(['Team step']);
    expect(await list({ scope_id: null, status: 'any' })).toEqual(['Tricky', 'Old step', 'Plain step']);
    expect(await list({ category: 'ops', status: 'any' })).toEqual(['Old step', 'Plain step']);
    expect(await list({ category: 'OPS' })).toEqual(['Tricky']);
    expect(await list({ query: 'STEP' })).toEqual(['Hidden step', 'Team step', 'Plain step']);
    expect(await list({ query: '100%_' })).toEqual(['Team step']);
    const page = await h.owner.client.ok<BitPage>('list_bits', { limit: 2 });
    expect(page.bits).toHaveLength(2);
    const rest = await h.owner.client.ok<BitPage>('list_bits', { limit: 2, cursor: page.next_cursor });
    expect(rest.bits.map((b) => b.bit_title)).toEqual(['Team step', 'Plain step']);
    expect(rest.next_cursor).toBeNull();
  });

  it('pages through a category filter that skips most rows', async () => {
    for (let i = 0; i < 7; i++) await addTestBit(h, { title: `Filler ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: BitPage = await h.owner.client.ok<BitPage>('list_bits', { status: 'any', category: 'ops', limit: 1, ...(cursor ? { cursor } : {}) });
      seen.push(...page.bits.map((b) => b.bit_title));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(['Old step', 'Plain step']);
  });

  it('the list tools need read or author', async () => {
    const runner = await h.principal({ permission: 'admin', capabilities: ['run'] });
    expect((await runner.client.fail('list_flows', {})).code).toBe('FORBIDDEN');
    expect((await runner.client.fail('list_bits', {})).code).toBe('FORBIDDEN');
  });
});
