/**
 * Connections through the real MCP client (issue 4, items 1, 2 and 4): connect_bits, remove_connection,
 * connection lines in add_bit/update_bit bodies, and archive_bit's cascade. After every test the whole
 * store must satisfy the graph invariant (body nodes = mirror rows, dense sort_order, ≤ 20, none on or to
 * an archived bit).
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import type { BitWriteResult as Written, ConnectionResult as Connected } from '../../services/bits/shapes.js';
import { assertGraphInvariant } from '../../../test/invariants.js';

interface BitView {
  bit_body: string;
  status: string;
  connections: Array<{ connection_id: string; target_bit_id: string; sort_order: number; label: string | null; params: Record<string, unknown> }>;
  last_modified_date_time_utc: string;
}

describe.each(ENGINES)('connections on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());
  afterEach(async () => assertGraphInvariant(h.store.store));

  const add = async (title: string, extra: Record<string, unknown> = {}) => (await h.owner.client.ok<Written>('add_bit', { bit_title: title, bit_body: `${title} body`, ...extra })).bit_id;
  const get = (id: string) => h.owner.client.ok<BitView>('get_bit', { bit_id: id });
  const connect = (source: string, target: string, extra: Record<string, unknown> = {}) =>
    h.owner.client.ok<Connected>('connect_bits', { source_bit_id: source, target_bit_id: target, ...extra });
  const update = (bitId: string, body: string, extra: Record<string, unknown> = {}) =>
    h.owner.client.ok<Written>('update_bit', { bit_id: bitId, bit_body: body, content_format: 'markdown', ...extra });
  /** The mirror rows, read straight from the store. */
  const rows = (source: string) =>
    h.store.store.db.selectFrom('connections').select(['id', 'target_bit_id', 'sort_order']).where('source_bit_id', '=', source).orderBy('sort_order').execute();
  const line = (target: string, id: string, label = '→') => `[${label}](bit-connection:${target}?node=${id})`;

  describe('connect_bits', () => {
    it('assigns sort_order as the outgoing count; an explicit equal value is accepted, a different one is SORT_ORDER_CONFLICT', async () => {
      const source = await add('Source');
      const targets = [await add('T0'), await add('T1'), await add('T2'), await add('T3')];
      const made = [await connect(source, targets[0]), await connect(source, targets[1]), await connect(source, targets[2], { sort_order: 2 })];
      expect(made[0]).toMatchObject({ source_bit_id: source, target_bit_id: targets[0] });
      expect(Object.keys(made[0]).sort()).toEqual(['connection_id', 'source_bit_id', 'source_bit_last_modified_date_time_utc', 'target_bit_id']);
      expect((await rows(source)).map((r) => [r.id, Number(r.sort_order)])).toEqual(made.map((m, i) => [m.connection_id, i]));
      expect((await get(source)).connections.map((c) => [c.connection_id, c.sort_order])).toEqual(made.map((m, i) => [m.connection_id, i]));
      for (const wrong of [0, 2, 4, 19]) {
        const error = await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: targets[3], sort_order: wrong });
        expect(error).toMatchObject({ code: 'SORT_ORDER_CONFLICT', status: 409, details: { expected_sort_order: 3 } });
      }
      expect(await rows(source)).toHaveLength(3);
      // The ignored input is accepted.
      await connect(source, targets[3], { sort_order: 3, source_bit_last_modified_date_time_utc: '2000-01-01T00:00:00Z' });
      expect((await rows(source)).map((r) => Number(r.sort_order))).toEqual([0, 1, 2, 3]);
    });

    it('accepts 20 outgoing connections and refuses the 21st with CONNECTION_LIMIT_EXCEEDED, by tool and by body line', async () => {
      const source = await add('Hub');
      const target = await add('Spoke');
      for (let i = 0; i < 20; i++) expect((await connect(source, target, i % 2 === 0 ? { sort_order: i } : {})).target_bit_id).toBe(target);
      const error = await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: target });
      expect(error).toMatchObject({ code: 'CONNECTION_LIMIT_EXCEEDED', status: 422 });
      const viaBody = await h.owner.client.fail('update_bit', { bit_id: source, bit_body: `${(await get(source)).bit_body}\n[→](bit-connection:${target})\n`, content_format: 'markdown' });
      expect(viaBody.code).toBe('CONNECTION_LIMIT_EXCEEDED');
      expect(await rows(source)).toHaveLength(20);
    });

    it('refuses bits of different scopes with SCOPE_MISMATCH, either way round', async () => {
      const scopeId = await h.services.auth.createScope(h.accountId, 'team');
      const scoped = await add('Scoped', { scope_id: scopeId });
      const accountLevel = await add('Account level');
      for (const [source, target] of [
        [scoped, accountLevel],
        [accountLevel, scoped],
      ]) {
        const error = await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: target });
        expect(error).toMatchObject({ code: 'SCOPE_MISMATCH', status: 422 });
      }
      const other = await add('Scoped too', { scope_id: scopeId });
      await connect(scoped, other);
      // A body line is held to the same rule.
      const viaBody = await h.owner.client.fail('update_bit', { bit_id: accountLevel, bit_body: `x\n\n[→](bit-connection:${scoped})\n`, content_format: 'markdown' });
      expect(viaBody.code).toBe('SCOPE_MISMATCH');
    });

    it('refuses an archived source or target with BIT_ARCHIVED', async () => {
      const active = await add('Active');
      const archived = await add('Archived');
      await h.owner.client.ok('archive_bit', { bit_id: archived });
      for (const [source, target] of [
        [active, archived],
        [archived, active],
      ]) {
        const error = await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: target });
        expect(error).toMatchObject({ code: 'BIT_ARCHIVED', status: 422 });
      }
      const viaBody = await h.owner.client.fail('update_bit', { bit_id: active, bit_body: `x\n\n[→](bit-connection:${archived})\n`, content_format: 'markdown' });
      expect(viaBody.code).toBe('BIT_ARCHIVED');
    });

    it('answers BIT_NOT_FOUND for a bit that does not exist, another account\'s, or a scope the caller cannot see', async () => {
      const mine = await add('Mine');
      const otherAccount = await h.services.auth.createAccount('other');
      const stranger = await h.principal({ accountId: otherAccount });
      const theirs = (await stranger.client.ok<Written>('add_bit', { bit_title: 'Theirs', bit_body: 'x' })).bit_id;
      const missing = '00000000-0000-4000-8000-000000000000';
      for (const [source, target] of [
        [mine, missing],
        [missing, mine],
        [mine, theirs],
        [theirs, mine],
      ]) {
        const error = await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: target });
        expect(error).toMatchObject({ code: 'BIT_NOT_FOUND', status: 404 });
      }
      // A principal limited to scope A does not see scope B.
      const scopeA = await h.services.auth.createScope(h.accountId, 'A');
      const scopeB = await h.services.auth.createScope(h.accountId, 'B');
      const inA = await add('In A', { scope_id: scopeA });
      const inB = await add('In B', { scope_id: scopeB });
      const limited = await h.principal({ scopeId: scopeA, permission: 'edit' });
      expect((await limited.client.fail('connect_bits', { source_bit_id: inA, target_bit_id: inB })).code).toBe('BIT_NOT_FOUND');
      expect((await limited.client.fail('connect_bits', { source_bit_id: inB, target_bit_id: inA })).code).toBe('BIT_NOT_FOUND');
      const viaBody = await h.owner.client.fail('update_bit', { bit_id: mine, bit_body: `x\n\n[→](bit-connection:${theirs})\n`, content_format: 'markdown' });
      expect(viaBody.code).toBe('BIT_NOT_FOUND');
      expect(await rows(mine)).toEqual([]);
    });

    it('get_bit prints each connection as its own line with node=', async () => {
      const source = await add('Lines');
      const [a, b] = [await add('A'), await add('B')];
      const first = await connect(source, a);
      const second = await connect(source, b);
      const bit = await get(source);
      expect(bit.bit_body).toBe(`Lines body\n\n${line(a, first.connection_id)}\n\n${line(b, second.connection_id)}\n`);
      expect(bit.connections).toEqual([
        expect.objectContaining({ connection_id: first.connection_id, target_bit_id: a, sort_order: 0, label: null, params: {} }),
        expect.objectContaining({ connection_id: second.connection_id, target_bit_id: b, sort_order: 1, label: null, params: {} }),
      ]);
      // An empty body is replaced by the line rather than kept as an empty paragraph before it.
      const empty = (await h.owner.client.ok<Written>('add_bit', { bit_title: 'Empty', bit_body: '' })).bit_id;
      const only = await connect(empty, a);
      expect((await get(empty)).bit_body).toBe(`${line(a, only.connection_id)}\n`);
    });
  });

  describe('remove_connection', () => {
    it('removes once; a second call is 404 CONNECTION_NOT_FOUND; the source timestamp advances on connect and on remove', async () => {
      const source = await add('Source');
      const target = await add('Target');
      const before = (await get(source)).last_modified_date_time_utc;
      const made = await connect(source, target);
      expect(made.source_bit_last_modified_date_time_utc > before).toBe(true);
      expect((await get(source)).last_modified_date_time_utc).toBe(made.source_bit_last_modified_date_time_utc);
      const removed = await h.owner.client.ok<Connected>('remove_connection', { connection_id: made.connection_id, source_bit_last_modified_date_time_utc: 'ignored' });
      expect(removed).toEqual({ connection_id: made.connection_id, source_bit_id: source, source_bit_last_modified_date_time_utc: expect.any(String), target_bit_id: target });
      expect(removed.source_bit_last_modified_date_time_utc > made.source_bit_last_modified_date_time_utc).toBe(true);
      const after = await get(source);
      expect(after.last_modified_date_time_utc).toBe(removed.source_bit_last_modified_date_time_utc);
      expect(after.connections).toEqual([]);
      expect(after.bit_body).toBe('Source body\n');
      expect(await rows(source)).toEqual([]);
      const again = await h.owner.client.fail('remove_connection', { connection_id: made.connection_id });
      expect(again).toMatchObject({ code: 'CONNECTION_NOT_FOUND', status: 404, details: { connection_id: made.connection_id } });
      expect((await h.owner.client.fail('remove_connection', { connection_id: '00000000-0000-4000-8000-000000000000' })).code).toBe('CONNECTION_NOT_FOUND');
    });

    it('another account\'s connection is CONNECTION_NOT_FOUND and stays', async () => {
      const stranger = await h.principal({ accountId: await h.services.auth.createAccount('other') });
      const s = (await stranger.client.ok<Written>('add_bit', { bit_title: 'S', bit_body: 'x' })).bit_id;
      const t = (await stranger.client.ok<Written>('add_bit', { bit_title: 'T', bit_body: 'x' })).bit_id;
      const theirs = await stranger.client.ok<Connected>('connect_bits', { source_bit_id: s, target_bit_id: t });
      expect((await h.owner.client.fail('remove_connection', { connection_id: theirs.connection_id })).code).toBe('CONNECTION_NOT_FOUND');
      expect(await rows(s)).toHaveLength(1);
    });

    it('keeps sort_order dense after a removal, so the next append takes the count', async () => {
      const source = await add('Dense');
      const targets = [await add('0'), await add('1'), await add('2'), await add('3')];
      const made = [];
      for (const t of targets.slice(0, 3)) made.push(await connect(source, t));
      await h.owner.client.ok('remove_connection', { connection_id: made[1].connection_id });
      expect((await rows(source)).map((r) => [r.id, Number(r.sort_order)])).toEqual([
        [made[0].connection_id, 0],
        [made[2].connection_id, 1],
      ]);
      expect((await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: targets[3], sort_order: 3 })).details).toEqual({ expected_sort_order: 2 });
      const next = await connect(source, targets[3], { sort_order: 2 });
      expect((await get(source)).connections.map((c) => [c.connection_id, c.sort_order])).toEqual([
        [made[0].connection_id, 0],
        [made[2].connection_id, 1],
        [next.connection_id, 2],
      ]);
      await h.owner.client.ok('remove_connection', { connection_id: made[0].connection_id });
      expect((await rows(source)).map((r) => Number(r.sort_order))).toEqual([0, 1]);
    });
  });

  describe('connection lines in update_bit and add_bit', () => {
    it('keeps a line that keeps node=, refuses a dropped one with BIT_CONTENT_LOSS, removes it with remove_node_ids', async () => {
      const source = await add('Edit');
      const [a, b] = [await add('A'), await add('B')];
      const ca = await connect(source, a);
      const cb = await connect(source, b);
      const body = (await get(source)).bit_body;
      // Written back unchanged: both kept, ids and order too.
      expect((await update(source, body)).removed_node_ids).toEqual([]);
      expect((await rows(source)).map((r) => r.id)).toEqual([ca.connection_id, cb.connection_id]);
      const withoutA = body.replace(`${line(a, ca.connection_id)}\n\n`, '');
      const error = await h.owner.client.fail('update_bit', { bit_id: source, bit_body: withoutA, content_format: 'markdown' });
      expect(error).toMatchObject({ code: 'BIT_CONTENT_LOSS', status: 422, details: { removed_nodes: [{ id: ca.connection_id, type: 'bit-connection', label: null }] } });
      expect(await rows(source)).toHaveLength(2);
      const done = await update(source, withoutA, { remove_node_ids: [ca.connection_id] });
      expect(done.removed_node_ids).toEqual([ca.connection_id]);
      expect((await rows(source)).map((r) => [r.id, Number(r.sort_order)])).toEqual([[cb.connection_id, 0]]);
      expect((await h.owner.client.fail('remove_connection', { connection_id: ca.connection_id })).code).toBe('CONNECTION_NOT_FOUND');
    });

    it('an empty or blank label is no label: stored null, printed as →', async () => {
      const source = await add('Unlabelled');
      const [a, b] = [await add('A'), await add('B')];
      await update(source, `[](bit-connection:${a})\n\n[ ](bit-connection:${b})\n`);
      const bit = await get(source);
      expect(bit.connections.map((c) => c.label)).toEqual([null, null]);
      expect(bit.bit_body).toBe(`${line(a, bit.connections[0].connection_id)}\n\n${line(b, bit.connections[1].connection_id)}\n`);
    });

    it('a line without node= creates a connection; reordered lines reorder the rows', async () => {
      const source = await add('Grow');
      const [a, b] = [await add('A'), await add('B')];
      const ca = await connect(source, a);
      const before = (await get(source)).last_modified_date_time_utc;
      const written = await update(source, `[Go to B](bit-connection:${b})\n\nMiddle\n\n${line(a, ca.connection_id)}\n`);
      expect(written.last_modified_date_time_utc > before).toBe(true);
      const bit = await get(source);
      expect(bit.connections.map((c) => [c.target_bit_id, c.label])).toEqual([
        [b, 'Go to B'],
        [a, null],
      ]);
      const created = bit.connections[0].connection_id;
      expect(bit.bit_body).toBe(`${line(b, created, 'Go to B')}\n\nMiddle\n\n${line(a, ca.connection_id)}\n`);
      expect((await rows(source)).map((r) => [r.id, r.target_bit_id, Number(r.sort_order)])).toEqual([
        [created, b, 0],
        [ca.connection_id, a, 1],
      ]);
    });

    it('a line without node= claims the unclaimed stored connection to that target', async () => {
      const source = await add('Claim');
      const [a, b] = [await add('A'), await add('B')];
      const ca = await connect(source, a);
      const cb = await connect(source, b);
      // The line to A lost its node=; the stored connection to A is named by no line, so the line takes it.
      const written = await update(source, `Claim body\n\n[Again A](bit-connection:${a})\n\n${line(b, cb.connection_id)}\n`);
      expect(written.removed_node_ids).toEqual([]);
      const bit = await get(source);
      expect(bit.connections.map((c) => [c.connection_id, c.label])).toEqual([
        [ca.connection_id, 'Again A'],
        [cb.connection_id, null],
      ]);
      expect((await rows(source)).map((r) => r.id)).toEqual([ca.connection_id, cb.connection_id]);
      // Two lines to A without node=: the first claims, the second is new.
      await update(source, `[→](bit-connection:${a})\n\n[→](bit-connection:${a})\n\n${line(b, cb.connection_id)}\n`);
      const ids = (await rows(source)).map((r) => r.id);
      expect(ids).toHaveLength(3);
      expect(ids[0]).toBe(ca.connection_id);
      expect(ids.slice(1)).not.toContain(ca.connection_id);
    });

    it('a node= that is not this bit\'s connection is refused, and nothing changes', async () => {
      const source = await add('Foreign');
      const other = await add('Other');
      const a = await add('A');
      const theirs = await connect(other, a);
      const error = await h.owner.client.fail('update_bit', { bit_id: source, bit_body: `${line(a, theirs.connection_id)}\n`, content_format: 'markdown' });
      expect(error.code).toBe('CONNECTION_NOT_FOUND');
      expect(await rows(source)).toEqual([]);
      expect((await rows(other)).map((r) => r.id)).toEqual([theirs.connection_id]);
    });

    it('a Slate body is held to the same rules: no foreign or made-up connection id, no new target, targets checked', async () => {
      const source = await add('Slate source');
      const [a, b] = [await add('A'), await add('B')];
      const gone = await add('Gone');
      await h.owner.client.ok('archive_bit', { bit_id: gone });
      const mine = await connect(source, a);
      const theirs = await connect(b, a);
      const node = (id: string | null, target: string) => ({ type: 'bit-connection', id, target_bit_id: target, label: null, params: {}, children: [{ text: '' }] });
      const slate = (nodes: unknown[]) => h.owner.client.fail('update_bit', { bit_id: source, bit_body: nodes, content_format: 'slate' });
      expect((await slate([node(mine.connection_id, a), node(theirs.connection_id, a)])).code).toBe('CONNECTION_NOT_FOUND');
      expect((await slate([node(mine.connection_id, a), node('11111111-1111-4111-8111-111111111111', b)])).code).toBe('CONNECTION_NOT_FOUND');
      expect((await slate([node(mine.connection_id, b)])).code).toBe('VALIDATION_ERROR');
      expect((await slate([node(mine.connection_id, a), node(null, gone)])).code).toBe('BIT_ARCHIVED');
      expect((await slate([node(mine.connection_id, a), node(null, '33333333-3333-4333-8333-333333333333')])).code).toBe('BIT_NOT_FOUND');
      expect((await rows(source)).map((r) => r.id)).toEqual([mine.connection_id]);
      expect((await rows(b)).map((r) => r.id)).toEqual([theirs.connection_id]);
      // A new node without an id is a new connection; the kept one keeps its row.
      await h.owner.client.ok('update_bit', { bit_id: source, bit_body: [node(null, b), node(mine.connection_id, a)], content_format: 'slate' });
      const after = await rows(source);
      expect(after.map((r) => [r.target_bit_id, Number(r.sort_order)])).toEqual([
        [b, 0],
        [a, 1],
      ]);
      expect(after[1].id).toBe(mine.connection_id);
    });

    it('round-trips preview/description/categories/readingTime and when= in canonical order', async () => {
      const target = await add('Next');
      const { bit_id: source, minted_node_ids: m } = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'Conditional',
        bit_body: `Pick\n\n[dropdown: Choice](waymark-node:dd)\n- [One](waymark-node:o1)\n- [Two](waymark-node:o2)\n\n[radio-button: Size](waymark-node:rb)\n- ( ) [Small](waymark-node:r1)\n- ( ) [Large](waymark-node:r2)\n\n[check-list: Steps](waymark-node:cl)\n- [ ] [Done](waymark-node:c1)\n`,
        elements: [
          { key: 'dd', type: 'dropdown', items: [{ key: 'o1' }, { key: 'o2' }] },
          { key: 'rb', type: 'radio-button', items: [{ key: 'r1' }, { key: 'r2' }] },
          { key: 'cl', type: 'check-list', items: [{ key: 'c1' }] },
        ],
      });
      const c1 = await connect(source, target);
      const c2 = await connect(source, target);
      const c3 = await connect(source, target);
      const c4 = await connect(source, target);
      const body = (await get(source)).bit_body;
      const edited = body
        .replace(`?node=${c1.connection_id})`, `?readingTime=0&categories=0&node=${c1.connection_id}&description=0&preview=0)`)
        .replace(`?node=${c2.connection_id})`, `?preview=0&when=${m.dd}:${m.o2}&node=${c2.connection_id})`)
        .replace(`?node=${c3.connection_id})`, `?node=${c3.connection_id}&description=0&when=${m.c1}:checked)`)
        .replace(`?node=${c4.connection_id})`, `?when=${m.rb}:${m.r1},${m.r2}&node=${c4.connection_id}&readingTime=0)`);
      await update(source, edited);
      const bit = await get(source);
      const lines = bit.bit_body.split('\n').filter((l) => l.includes('bit-connection:'));
      expect(lines).toEqual([
        `[→](bit-connection:${target}?node=${c1.connection_id}&preview=0&description=0&categories=0&readingTime=0)`,
        `[→](bit-connection:${target}?node=${c2.connection_id}&when=${m.dd}:${m.o2}&preview=0)`,
        `[→](bit-connection:${target}?node=${c3.connection_id}&when=${m.c1}:checked&description=0)`,
        `[→](bit-connection:${target}?node=${c4.connection_id}&when=${m.rb}:${m.r1},${m.r2}&readingTime=0)`,
      ]);
      expect(bit.connections.map((c) => c.params)).toEqual([
        { preview: false, description: false, categories: false, readingTime: false },
        { when: { element_id: m.dd, option_ids: [m.o2] }, preview: false },
        { when: { element_id: m.c1, checked: true }, description: false },
        { when: { element_id: m.rb, option_ids: [m.r1, m.r2] }, readingTime: false },
      ]);
      // What get_bit printed is a fixpoint: written back, nothing changes.
      await update(source, bit.bit_body);
      expect((await get(source)).bit_body).toBe(bit.bit_body);
      // A parameter is dropped by writing the line without it.
      await update(source, bit.bit_body.replace(`&when=${m.c1}:checked&description=0`, ''));
      expect((await get(source)).connections[2].params).toEqual({});
      expect((await rows(source)).map((r) => r.id)).toEqual([c1, c2, c3, c4].map((c) => c.connection_id));
    });

    it('refuses when= naming an element that is not in this bit, or not an option of it', async () => {
      const target = await add('Next');
      const { bit_id: elsewhere, minted_node_ids: other } = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'Elsewhere',
        bit_body: `[dropdown: Other](waymark-node:dd)\n- [X](waymark-node:x)\n`,
        elements: [{ key: 'dd', type: 'dropdown', items: [{ key: 'x' }] }],
      });
      const { bit_id: source, minted_node_ids: m } = await h.owner.client.ok<Written>('add_bit', {
        bit_title: 'Here',
        bit_body: `[dropdown: Mine](waymark-node:dd)\n- [Y](waymark-node:y)\n\n[text-area: Notes](waymark-node:ta)\n`,
        elements: [
          { key: 'dd', type: 'dropdown', items: [{ key: 'y' }] },
          { key: 'ta', type: 'text-area' },
        ],
      });
      const made = await connect(source, target);
      const body = (await get(source)).bit_body;
      for (const when of [`${other.dd}:${other.x}`, `${m.dd}:${other.x}`, `${m.ta}:${m.y}`, `${m.y}:checked`, `${elsewhere}:checked`]) {
        const error = await h.owner.client.fail('update_bit', { bit_id: source, bit_body: body.replace(`?node=${made.connection_id})`, `?node=${made.connection_id}&when=${when})`), content_format: 'markdown' });
        expect(error.code, when).toBe('VALIDATION_ERROR');
      }
      expect((await get(source)).connections[0].params).toEqual({});
    });

    it('add_bit with a connection line creates the connection', async () => {
      const target = await add('Target');
      const { bit_id: source } = await h.owner.client.ok<Written>('add_bit', { bit_title: 'New', bit_body: `Intro\n\n[Onward](bit-connection:${target})\n` });
      const bit = await get(source);
      expect(bit.connections).toEqual([expect.objectContaining({ target_bit_id: target, sort_order: 0, label: 'Onward' })]);
      const id = bit.connections[0].connection_id;
      expect(bit.bit_body).toBe(`Intro\n\n${line(target, id, 'Onward')}\n`);
      expect(await rows(source)).toEqual([{ id, target_bit_id: target, sort_order: 0 }]);
      // The connection is a real one: the next append goes after it, and remove_connection removes it.
      expect((await h.owner.client.fail('connect_bits', { source_bit_id: source, target_bit_id: target, sort_order: 0 })).details).toEqual({ expected_sort_order: 1 });
      await h.owner.client.ok('remove_connection', { connection_id: id });
      expect((await get(source)).bit_body).toBe('Intro\n');
      // The same target checks as connect_bits.
      const archived = await add('Gone');
      await h.owner.client.ok('archive_bit', { bit_id: archived });
      expect((await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: `[→](bit-connection:${archived})` })).code).toBe('BIT_ARCHIVED');
    });
  });

  describe('archive_bit', () => {
    it('is refused while the bit starts an active flow, with the flow ids', async () => {
      const start = await add('Start');
      const flow = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Flow', start_bit_id: start });
      const second = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Flow 2', start_bit_id: start });
      const error = await h.owner.client.fail('archive_bit', { bit_id: start });
      expect(error).toMatchObject({ code: 'BIT_IS_ACTIVE_FLOW_START', status: 422 });
      expect((error.details?.flow_ids as string[]).slice().sort()).toEqual([flow.flow_id, second.flow_id].sort());
      expect((await get(start)).status).toBe('active');
      await h.owner.client.ok('update_flow', { flow_id: flow.flow_id, is_active: false });
      expect((await h.owner.client.fail('archive_bit', { bit_id: start })).details).toEqual({ flow_ids: [second.flow_id] });
      await h.owner.client.ok('update_flow', { flow_id: second.flow_id, is_active: false });
      expect(await h.owner.client.ok('archive_bit', { bit_id: start })).toMatchObject({ bit_id: start, was_already_archived: false });
    });

    it('clears every incoming and outgoing connection, bodies and rows; a second call runs no cascade', async () => {
      const bit = await add('Middle');
      const [in1, in2, out1] = [await add('In 1'), await add('In 2'), await add('Out 1')];
      const keep = await add('Keep');
      const i1 = await connect(in1, bit);
      const i1keep = await connect(in1, keep);
      const i1twice = await connect(in1, bit);
      const i2 = await connect(in2, bit);
      await connect(bit, out1);
      await connect(bit, bit);
      await connect(bit, keep);
      const stamps = { in1: (await get(in1)).last_modified_date_time_utc, in2: (await get(in2)).last_modified_date_time_utc, keep: (await get(keep)).last_modified_date_time_utc };
      const archived = await h.owner.client.ok<{ bit_id: string; last_modified_date_time_utc: string; was_already_archived: boolean }>('archive_bit', { bit_id: bit });
      expect(archived).toMatchObject({ bit_id: bit, was_already_archived: false });
      const after = await get(bit);
      expect(after).toMatchObject({ status: 'archived', connections: [], bit_body: 'Middle body\n', last_modified_date_time_utc: archived.last_modified_date_time_utc });
      expect(await rows(bit)).toEqual([]);
      // The incoming sources lost their lines to the archived bit, kept the others, and advanced.
      const source1 = await get(in1);
      expect(source1.bit_body).toBe(`In 1 body\n\n${line(keep, i1keep.connection_id)}\n`);
      expect((await rows(in1)).map((r) => [r.id, Number(r.sort_order)])).toEqual([[i1keep.connection_id, 0]]);
      expect(source1.last_modified_date_time_utc > stamps.in1).toBe(true);
      const source2 = await get(in2);
      expect(source2.bit_body).toBe('In 2 body\n');
      expect(source2.last_modified_date_time_utc > stamps.in2).toBe(true);
      // A bit only targeted by the archived one is not written.
      expect((await get(keep)).last_modified_date_time_utc).toBe(stamps.keep);
      for (const id of [i1.connection_id, i1twice.connection_id, i2.connection_id]) {
        expect((await h.owner.client.fail('remove_connection', { connection_id: id })).code).toBe('CONNECTION_NOT_FOUND');
      }
      const again = await h.owner.client.ok<{ last_modified_date_time_utc: string; was_already_archived: boolean }>('archive_bit', { bit_id: bit, last_modified_date_time_utc: 'ignored' });
      expect(again).toEqual({ bit_id: bit, last_modified_date_time_utc: archived.last_modified_date_time_utc, was_already_archived: true });
      expect((await get(in1)).last_modified_date_time_utc).toBe(source1.last_modified_date_time_utc);
    });

    it.runIf(engine === 'postgres')('a connect or body line racing the archive of its target is refused once the archive commits', async () => {
      // An archive as clearIncoming runs it: the target held FOR UPDATE and archived, not yet committed. The
      // connect has already seen the target active; its insert waits for the archive, and must then refuse.
      for (const write of ['connect', 'update'] as const) {
        const source = await add('Racer');
        const target = await add('Being archived');
        const archiver = new pg.Client({ connectionString: h.store.env.WAYMARK_DATABASE_URL });
        await archiver.connect();
        try {
          await archiver.query('BEGIN');
          await archiver.query('SELECT id FROM bits WHERE id = $1 FOR UPDATE', [target]);
          await archiver.query(`UPDATE bits SET status = 'archived' WHERE id = $1`, [target]);
          const pending =
            write === 'connect'
              ? h.owner.client.call('connect_bits', { source_bit_id: source, target_bit_id: target })
              : h.owner.client.call('update_bit', { bit_id: source, bit_body: `[→](bit-connection:${target})`, content_format: 'markdown' });
          for (let i = 0; i < 200; i++) {
            const waiting = await archiver.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
            if (waiting.rowCount) break;
            await new Promise((r) => setTimeout(r, 10));
          }
          await archiver.query('COMMIT');
          const answer = await pending;
          expect(answer.error?.code, write).toBe('BIT_ARCHIVED');
          expect(await rows(source)).toEqual([]);
        } finally {
          await archiver.end();
        }
      }
    });

    it('archived bits take no connections; a restored one starts with none', async () => {
      const bit = await add('Archived');
      const other = await add('Other');
      await connect(other, bit);
      await h.owner.client.ok('archive_bit', { bit_id: bit });
      expect((await h.owner.client.fail('update_bit', { bit_id: bit, bit_body: `[→](bit-connection:${other})`, content_format: 'markdown' })).code).toBe('BIT_ARCHIVED');
      expect((await get(other)).connections).toEqual([]);
    });
  });
});
