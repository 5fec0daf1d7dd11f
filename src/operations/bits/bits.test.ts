import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import type { BitWriteResult as Written } from '../../services/bits/shapes.js';

interface BitView {
  bit_body: string;
  bit_title: string;
  bit_abstract: string | null;
  bit_description: string | null;
  bit_categories: string[];
  status: string;
  elements: Array<{ id: string; type: string; props: Record<string, unknown>; items?: Array<{ id: string } & Record<string, unknown>> }>;
  connections: Array<{ connection_id: string; target_bit_id: string; sort_order: number }>;
  last_modified_date_time_utc: string;
}

describe.each(ENGINES)('bits on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  const add = (args: Record<string, unknown>) => h.owner.client.ok<Written>('add_bit', args);
  const get = (id: string, format?: string) => h.owner.client.ok<BitView>('get_bit', { bit_id: id, ...(format ? { format } : {}) });

  it('adds a bit with elements and gives the body back with ids in anchors', async () => {
    const written = await add({
      bit_title: 'Check the invoice',
      bit_body: 'Look at the **invoice** first.\n\n[text-area: Notes](waymark-node:notes)\n\n[check-list: Steps](waymark-node:steps)\n- [ ] [Open it](waymark-node:s1)\n- [x] [Sign it](waymark-node:s2)\n',
      elements: [
        { key: 'notes', type: 'text-area', props: { required: true, maxLength: '200' } },
        { key: 'steps', type: 'check-list', items: [{ key: 's1', required: true }, { key: 's2' }] },
      ],
    });
    expect(Object.keys(written.minted_node_ids).sort()).toEqual(['notes', 's1', 's2', 'steps']);
    const bit = await get(written.bit_id);
    const { notes, steps, s1, s2 } = written.minted_node_ids;
    expect(bit.bit_body).toBe(
      `Look at the **invoice** first.\n\n[text-area: Notes](waymark-node:${notes}) (required)\n\n[check-list: Steps](waymark-node:${steps})\n- [ ] [Open it](waymark-node:${s1}) *(required)*\n- [x] [Sign it](waymark-node:${s2})\n`,
    );
    expect(bit.elements.map((e) => e.type)).toEqual(['text-area', 'check-list']);
    // Writing back what get_bit returned changes no node.
    const again = await h.owner.client.ok<Written>('update_bit', { bit_id: written.bit_id, bit_body: bit.bit_body, content_format: 'markdown' });
    expect(again.removed_node_ids).toEqual([]);
    expect((await get(written.bit_id)).bit_body).toBe(bit.bit_body);
  });

  it('stores labels and item texts trimmed, as their lines read back, so writing back changes nothing', async () => {
    const written = await add({
      bit_title: 'Padded',
      bit_body: '[text-area](waymark-node:k)\n\n[check-list](waymark-node:c)\n- [ ] [item](waymark-node:i)\n',
      elements: [
        { key: 'k', type: 'text-area', props: { label: '  padded  ' } },
        { key: 'c', type: 'check-list', props: { label: ' list ' }, items: [{ key: 'i', text: ' item ' }] },
      ],
    });
    const bit = await get(written.bit_id);
    expect(bit.elements.map((e) => [e.props.label, e.items?.map((i) => i.text)])).toEqual([['padded', undefined], ['list', ['item']]]);
    await h.owner.client.ok('update_bit', { bit_id: written.bit_id, bit_body: bit.bit_body, content_format: 'markdown' });
    const again = await get(written.bit_id);
    expect([again.bit_body, again.elements]).toEqual([bit.bit_body, bit.elements]);
  });

  it('gives the body as Slate with format slate, and accepts Slate back (array or JSON string)', async () => {
    const written = await add({ bit_title: 'Slate', bit_body: 'Hello *world*' });
    const slate = await h.owner.client.ok<{ bit_body: unknown[]; content_format: string }>('get_bit', { bit_id: written.bit_id, format: 'slate' });
    expect(slate.content_format).toBe('slate');
    expect(slate.bit_body).toEqual([{ type: 'p', children: [{ text: 'Hello ' }, { text: 'world', italic: true }] }]);
    const fromArray = await add({ bit_title: 'From array', bit_body: slate.bit_body });
    expect((await get(fromArray.bit_id)).bit_body).toBe('Hello _world_\n');
    const fromString = await add({ bit_title: 'From string', bit_body: JSON.stringify(slate.bit_body), content_format: 'slate' });
    expect((await get(fromString.bit_id)).bit_body).toBe('Hello _world_\n');
    const error = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: slate.bit_body, elements: [{ key: 'a', type: 'text-area' }] });
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses element-like markdown without an elements entry, with the line', async () => {
    const error = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: 'Intro\n\n[text-area: Notes](waymark-node:notes)\n' });
    expect(error.code).toBe('UNSUPPORTED_MARKDOWN_CONSTRUCT');
    expect(error.status).toBe(422);
    expect(error.details?.line).toBe(3);
  });

  it('refuses an unknown prop with the allowed props', async () => {
    const error = await h.owner.client.fail('add_bit', {
      bit_title: 'x',
      bit_body: '[text-area: Notes](waymark-node:n)',
      elements: [{ key: 'n', type: 'text-area', props: { colour: 'red' } }],
    });
    expect(error.code).toBe('UNKNOWN_ELEMENT_PROP');
    expect(error.details?.allowed_props).toContain('validationPattern');
  });

  it('refuses javascript: and other non-web schemes in links, media and url props', async () => {
    for (const bit_body of ['[x](javascript:alert(1))', '![x](data:text/html;base64,AAAA)', '[x](vbscript:foo)']) {
      expect((await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body })).code).toBe('VALIDATION_ERROR');
    }
    const error = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: '[iframe](waymark-node:f)', elements: [{ key: 'f', type: 'iframe', props: { url: 'javascript:alert(1)' } }] });
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('keeps raw HTML as literal text', async () => {
    const written = await add({ bit_title: 'html', bit_body: 'Hi <script>alert(1)</script> there' });
    const slate = await h.owner.client.ok<{ bit_body: Array<{ children: Array<{ text: string }> }> }>('get_bit', { bit_id: written.bit_id, format: 'slate' });
    expect(slate.bit_body[0].children.map((c) => c.text).join('')).toBe('Hi <script>alert(1)</script> there');
  });

  it('enforces every field limit at its exact boundary', async () => {
    const ok = await add({
      bit_title: 't'.repeat(256),
      bit_body: 'x',
      bit_abstract: 'a'.repeat(2048),
      bit_description: 'd'.repeat(1024),
      bit_categories: Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(128, 'c')),
    });
    expect(ok.bit_id).toBeTruthy();
    const over: Array<[string, Record<string, unknown>]> = [
      ['bit_title', { bit_title: 't'.repeat(257) }],
      ['bit_title', { bit_title: '   ' }],
      ['bit_abstract', { bit_abstract: 'a'.repeat(2049) }],
      ['bit_description', { bit_description: 'd'.repeat(1025) }],
      ['bit_categories', { bit_categories: Array.from({ length: 51 }, () => 'c') }],
      ['bit_categories[0]', { bit_categories: ['c'.repeat(129)] }],
      ['complexity', { complexity: 'extreme' }],
    ];
    for (const [path, fields] of over) {
      const error = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: 'x', ...fields });
      expect(error.code, path).toBe('VALIDATION_ERROR');
      expect((error.details?.issues as Array<{ path: string }>).map((i) => i.path), path).toContain(path);
    }
  });

  it('answers a wrong argument type with the VALIDATION_ERROR envelope, not a bare text error', async () => {
    const error = await h.owner.client.fail('add_bit', { bit_title: 42, bit_body: 'x' });
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: 'bit_title' })]);
    expect((await h.owner.client.fail('get_bit', {})).code).toBe('VALIDATION_ERROR');
  });

  it('stores empty abstract and description as null, defaults complexity and human_required', async () => {
    const written = await add({ bit_title: 'x', bit_body: 'x', bit_abstract: '', bit_description: '' });
    const bit = await h.owner.client.ok<Record<string, unknown>>('get_bit', { bit_id: written.bit_id });
    expect(bit).toMatchObject({ bit_abstract: null, bit_description: null, complexity: 'medium', human_required: false, status: 'active', bit_categories: [] });
  });

  it('update_bit: omitted fields stay, categories are replaced whole, empty strings clear, the timestamp advances', async () => {
    const written = await add({ bit_title: 'Before', bit_body: 'Body', bit_abstract: 'abs', bit_categories: ['a', 'b'], complexity: 'high' });
    const updated = await h.owner.client.ok<Written>('update_bit', { bit_id: written.bit_id, bit_categories: ['c'], bit_abstract: '', last_modified_date_time_utc: '2000-01-01T00:00:00Z' });
    expect(updated.last_modified_date_time_utc > written.last_modified_date_time_utc).toBe(true);
    const bit = await get(written.bit_id);
    expect(bit).toMatchObject({ bit_title: 'Before', bit_abstract: null, bit_categories: ['c'], bit_body: 'Body\n', complexity: 'high' });
    expect(bit.last_modified_date_time_utc).toBe(updated.last_modified_date_time_utc);
  });

  it('update_bit refuses a blank title, status, remove_node_ids without bit_body, bit_body without content_format, elements with slate', async () => {
    const { bit_id } = await add({ bit_title: 'x', bit_body: 'x' });
    const before = await get(bit_id);
    const newElement = { key: 'n', type: 'text-area', props: { label: 'N' } };
    for (const args of [{ bit_title: '' }, { status: 'archived' }, { remove_node_ids: ['a'] }, { bit_body: 'new' }, { content_format: 'slate', elements: [newElement] }]) {
      const error = await h.owner.client.fail('update_bit', { bit_id, ...args });
      expect(error.code, JSON.stringify(args)).toBe('VALIDATION_ERROR');
    }
    expect(await get(bit_id)).toEqual(before);
  });

  it('BIT_CONTENT_LOSS for a dropped element, link or media node; remove_node_ids deletes on purpose', async () => {
    const written = await add({
      bit_title: 'loss',
      bit_body: 'See [the docs](https://example.com/docs) and ![a chart](https://example.com/c.png)\n\n[text-area: Notes](waymark-node:n)\n',
      elements: [{ key: 'n', type: 'text-area' }],
    });
    const bit = await get(written.bit_id);
    const error = await h.owner.client.fail('update_bit', { bit_id: written.bit_id, bit_body: 'Only prose now', content_format: 'markdown' });
    expect(error.code).toBe('BIT_CONTENT_LOSS');
    const removed = error.details?.removed_nodes as Array<{ id: string; type: string; label: string | null }>;
    expect(removed.map((n) => n.type).sort()).toEqual(['a', 'img', 'text-area']);
    expect(removed.find((n) => n.type === 'text-area')?.label).toBe('Notes');
    expect(await get(written.bit_id)).toEqual(bit);
    const ok = await h.owner.client.ok<Written>('update_bit', { bit_id: written.bit_id, bit_body: 'Only prose now', content_format: 'markdown', remove_node_ids: removed.map((n) => n.id) });
    expect(ok.removed_node_ids.sort()).toEqual(removed.map((n) => n.id).sort());
    expect((await get(written.bit_id)).elements).toEqual([]);
  });

  it('applies a link destination changed on a kept anchor', async () => {
    const written = await add({ bit_title: 'link', bit_body: 'See [the docs](https://example.com/old)' });
    const body = (await get(written.bit_id)).bit_body;
    const changed = body.replace('https://example.com/old', 'https://example.com/new');
    await h.owner.client.ok('update_bit', { bit_id: written.bit_id, bit_body: changed, content_format: 'markdown' });
    expect((await get(written.bit_id)).bit_body).toBe(changed);
  });

  it('elements without bit_body edit the stored nodes in place and add new ones', async () => {
    const written = await add({
      bit_title: 'edit',
      bit_body: '[check-list: Steps](waymark-node:steps)\n- [ ] [One](waymark-node:one)\n',
      elements: [{ key: 'steps', type: 'check-list', items: [{ key: 'one' }] }],
    });
    const steps = written.minted_node_ids.steps;
    const result = await h.owner.client.ok<Written>('update_bit', {
      bit_id: written.bit_id,
      elements: [
        { id: steps, type: 'check-list', props: { label: 'Renamed' }, items: [{ key: 'two', text: 'Two', required: true }] },
        { key: 'date', type: 'date-picker', props: { label: 'When', picker_type: 'date' } },
      ],
    });
    expect(Object.keys(result.minted_node_ids).sort()).toEqual(['date', 'two']);
    const bit = await get(written.bit_id);
    const list = bit.elements.find((e) => e.id === steps);
    expect(list?.props.label).toBe('Renamed');
    expect(list?.items?.map((i) => i.text)).toEqual(['One', 'Two']);
    expect(bit.elements.map((e) => e.type)).toEqual(['check-list', 'date-picker']);
    const missing = await h.owner.client.fail('update_bit', { bit_id: written.bit_id, elements: [{ id: '00000000-0000-4000-8000-000000000000', type: 'text-area', props: {} }] });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');
  });

  it('accepts 200 entries and items in one call and refuses 201', async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `i${i}`, text: `Item ${i}` }));
    const line = (n: number) => '[check-list: Many](waymark-node:many)\n' + Array.from({ length: n }, (_, i) => `- [ ] [Item ${i}](waymark-node:i${i})`).join('\n');
    const ok = await add({ bit_title: 'many', bit_body: line(199), elements: [{ key: 'many', type: 'check-list', items: items(199) }] });
    expect(Object.keys(ok.minted_node_ids)).toHaveLength(200);
    const error = await h.owner.client.fail('add_bit', { bit_title: 'many', bit_body: line(200), elements: [{ key: 'many', type: 'check-list', items: items(200) }] });
    expect(error.code).toBe('VALIDATION_ERROR');
  });

  it('refuses a repeated key and a malformed key', async () => {
    const twice = await h.owner.client.fail('add_bit', {
      bit_title: 'x',
      bit_body: '[text-area: A](waymark-node:k)\n\n[text-area: B](waymark-node:k2)',
      elements: [{ key: 'k', type: 'text-area' }, { key: 'k', type: 'text-area' }],
    });
    expect(twice.code).toBe('VALIDATION_ERROR');
    const bad = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: '[text-area: A](waymark-node:k)', elements: [{ key: 'k'.repeat(33), type: 'text-area' }] });
    expect(bad.code).toBe('VALIDATION_ERROR');
  });

  it('refuses bodies too large or too deep before parsing', async () => {
    const large = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: 'a'.repeat(8 * 1024 * 1024 + 1) });
    expect(large.code).toBe('BODY_TOO_LARGE');
    expect(large.status).toBe(413);
    const deep = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: '>'.repeat(100_000) + ' deep' });
    expect(deep.code).toBe('VALIDATION_ERROR');
  });

  it('archive_bit archives once; a second call says was_already_archived; an archived bit cannot be edited', async () => {
    const { bit_id } = await add({ bit_title: 'old', bit_body: 'x' });
    const first = await h.owner.client.ok<{ was_already_archived: boolean; last_modified_date_time_utc: string }>('archive_bit', { bit_id });
    expect(first.was_already_archived).toBe(false);
    const second = await h.owner.client.ok<{ was_already_archived: boolean; last_modified_date_time_utc: string }>('archive_bit', { bit_id });
    expect(second).toMatchObject({ was_already_archived: true, last_modified_date_time_utc: first.last_modified_date_time_utc });
    expect((await get(bit_id)).status).toBe('archived');
    expect((await h.owner.client.fail('update_bit', { bit_id, bit_title: 'new' })).code).toBe('BIT_ARCHIVED');
  });

  it('hides other accounts\' bits and refuses tokens without the capability or level', async () => {
    const { bit_id } = await add({ bit_title: 'mine', bit_body: 'x' });
    const otherAccount = await h.services.auth.createAccount('other');
    const stranger = await h.principal({ accountId: otherAccount });
    for (const [tool, args] of [['get_bit', { bit_id }], ['update_bit', { bit_id, bit_title: 'x' }], ['archive_bit', { bit_id }]] as const) {
      const error = await stranger.client.fail(tool, args);
      expect(error.code, tool).toBe('BIT_NOT_FOUND');
      expect(error.status).toBe(404);
    }
    const viewer = await h.principal({ permission: 'view', capabilities: ['read', 'author'] });
    const noLevel = await viewer.client.fail('add_bit', { bit_title: 'x', bit_body: 'x' });
    expect(noLevel).toMatchObject({ code: 'FORBIDDEN', status: 403, details: { required_permission: 'edit' } });
    const reader = await h.principal({ permission: 'admin', capabilities: ['read'] });
    expect((await reader.client.fail('add_bit', { bit_title: 'x', bit_body: 'x' })).details).toEqual({ required_capability: 'waymark.author' });
    expect((await reader.client.ok<BitView>('get_bit', { bit_id })).bit_title).toBe('mine');
    const runner = await h.principal({ capabilities: ['run'] });
    expect((await runner.client.fail('get_bit', { bit_id })).details).toEqual({ required_capability: 'waymark.read' });
  });

  it('a scope-limited principal writes only in its scope and sees only its scope and account level', async () => {
    const scopeA = await h.services.auth.createScope(h.accountId, 'A');
    const scopeB = await h.services.auth.createScope(h.accountId, 'B');
    const limited = await h.principal({ permission: 'edit', scopeId: scopeA });
    const accountLevel = await limited.client.fail('add_bit', { bit_title: 'x', bit_body: 'x' });
    expect(accountLevel.code).toBe('FORBIDDEN');
    expect(accountLevel.message).toContain(scopeA);
    expect((await limited.client.fail('add_bit', { bit_title: 'x', bit_body: 'x', scope_id: scopeB })).code).toBe('SCOPE_NOT_FOUND');
    const inA = await limited.client.ok<Written>('add_bit', { bit_title: 'x', bit_body: 'x', scope_id: scopeA });
    const inB = await add({ bit_title: 'b', bit_body: 'x', scope_id: scopeB });
    const top = await add({ bit_title: 'top', bit_body: 'x' });
    expect((await limited.client.fail('get_bit', { bit_id: inB.bit_id })).code).toBe('BIT_NOT_FOUND');
    expect((await limited.client.ok<BitView>('get_bit', { bit_id: top.bit_id })).bit_title).toBe('top');
    expect((await limited.client.fail('update_bit', { bit_id: top.bit_id, bit_title: 'y' })).code).toBe('FORBIDDEN');
    expect((await limited.client.ok<Written>('update_bit', { bit_id: inA.bit_id, bit_title: 'y' })).bit_id).toBe(inA.bit_id);
    expect((await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: 'x', scope_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('SCOPE_NOT_FOUND');
  });
});
