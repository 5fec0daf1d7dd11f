/**
 * list_history (issue 26): the changes a caller may see, newest first, filtered and cursor-paged, over MCP and at
 * GET /api/v1/history. A scope-limited token sees its scope's and the account level's changes only; another
 * account's never. Its prompt stays small.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import type { HistoryPage } from '../../services/events/shapes.js';

describe.each(ENGINES)('list_history on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  let scopeId: string;
  let accountBit: string;
  let scopedBit: string;

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
    scopeId = await h.services.auth.createScope(h.accountId, 'Team');
    accountBit = (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Account bit', bit_body: 'x' })).bit_id;
    scopedBit = (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Scoped bit', bit_body: 'x', scope_id: scopeId })).bit_id;
    await h.owner.client.ok('update_bit', { bit_id: accountBit, bit_title: 'Account bit, renamed' });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('lists one resource\'s changes newest first, with who and its revisions', async () => {
    const page = await h.owner.client.ok<HistoryPage>('list_history', { resource_type: 'bit', resource_id: accountBit });
    expect(page.next_cursor).toBeNull();
    expect(page.events.map((e) => [e.operation, e.revision, e.principal_id, e.principal_kind, e.summary])).toEqual([
      ['update_bit', 2, h.owner.principalId, 'agent', { fields: ['bit_title'] }],
      ['add_bit', 1, h.owner.principalId, 'agent', {}],
    ]);
    expect(page.events[0].token_id).toBe((await h.services.auth.authenticate(h.owner.token))?.tokenId);
  });

  it('pages with next_cursor, and filters by operation and principal', async () => {
    const all = (await h.owner.client.ok<HistoryPage>('list_history', { limit: 100 })).events;
    const seqs = all.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const first = await h.owner.client.ok<HistoryPage>('list_history', { limit: 2 });
    const second = await h.owner.client.ok<HistoryPage>('list_history', { limit: 2, cursor: first.next_cursor });
    expect([...first.events, ...second.events].map((e) => e.seq)).toEqual(seqs.slice(0, 4));
    const adds = await h.owner.client.ok<HistoryPage>('list_history', { operation: 'add_bit', principal_id: h.owner.principalId });
    expect(adds.events.map((e) => e.resource_id)).toEqual([scopedBit, accountBit]);
    expect((await h.owner.client.fail('list_history', { cursor: 'bm9wZQ' })).code).toBe('VALIDATION_ERROR');
  });

  it('shows a scope-limited token its scope\'s and the account level\'s changes, and nothing of another account', async () => {
    const otherScope = await h.services.auth.createScope(h.accountId, 'Other');
    await h.owner.client.ok('add_bit', { bit_title: 'Elsewhere', bit_body: 'x', scope_id: otherScope });
    const scoped = await h.principal({ scopeId, capabilities: ['read'], permission: 'view' });
    const seen = (await scoped.client.ok<HistoryPage>('list_history', { limit: 100 })).events;
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen.map((e) => e.scope_id))).toEqual(new Set([null, scopeId]));
    expect(seen.map((e) => e.resource_id)).toContain(scopedBit);

    // A scope's own changes, the account level's, and a scope not visible to the caller refused.
    const onlyScope = (await h.owner.client.ok<HistoryPage>('list_history', { scope_id: scopeId, limit: 100 })).events;
    expect(onlyScope.length).toBeGreaterThan(0);
    expect(onlyScope.every((e) => e.scope_id === scopeId)).toBe(true);
    const accountLevel = (await h.owner.client.ok<HistoryPage>('list_history', { scope_id: null, limit: 100 })).events;
    expect(accountLevel.every((e) => e.scope_id === null)).toBe(true);
    expect((await scoped.client.fail('list_history', { scope_id: otherScope })).code).toBe('SCOPE_NOT_FOUND');

    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('Another') });
    const theirs = (await stranger.client.ok<HistoryPage>('list_history', { limit: 100 })).events;
    expect(theirs.every((e) => e.resource_id !== accountBit && e.resource_id !== scopedBit)).toBe(true);
    expect((await stranger.client.ok<HistoryPage>('list_history', { resource_type: 'bit', resource_id: accountBit })).events).toEqual([]);
  });

  it('answers the same at GET /api/v1/history', async () => {
    const res = await fetch(`${web.origin}/api/v1/history?resource_type=bit&resource_id=${accountBit}`, { headers: { authorization: `Bearer ${h.owner.token}` } });
    const body = (await res.json()) as { data: HistoryPage };
    expect(body.data).toEqual(await h.owner.client.ok<HistoryPage>('list_history', { resource_type: 'bit', resource_id: accountBit }));
  });

  it('costs at most 300 tokens of a prompt (name, description, input schema)', async () => {
    const { tools } = await h.owner.client.client.listTools();
    const tool = tools.find((t) => t.name === 'list_history');
    const prompt = encode(JSON.stringify({ name: tool?.name, description: tool?.description, inputSchema: tool?.inputSchema })).length;
    expect(prompt).toBeLessThanOrEqual(300);
  });
});
