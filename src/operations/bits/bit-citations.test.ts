/**
 * References as bits show them: `[[ref:<id>|<label>]]` citations in bodies (issue 5, part 4) and the
 * linked references that get_bit lists by position.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { makeReference, para } from '../../../test/reference-fixtures.js';

describe.each(ENGINES)('citations and linked references in bits on %s', (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(engine);
  });
  afterAll(async () => h.close());

  it('parses a citation and gives it back as written', async () => {
    const ref = await makeReference(h.owner.client, { reference_title: 'Safety manual', reference_content: para('Wear gloves.') });
    const body = `Follow [[ref:${ref}|the safety manual]] before you start.\n`;
    const { bit_id } = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'cite', bit_body: body });
    const bit = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id });
    expect(bit.bit_body).toBe(body);
    const slate = await h.owner.client.ok<{ bit_body: Array<{ children: Array<Record<string, unknown>> }> }>('get_bit', { bit_id, format: 'slate' });
    expect(slate.bit_body[0].children).toContainEqual(expect.objectContaining({ type: 'citation', reference_id: ref, label: 'the safety manual' }));
  });

  it('refuses a citation of a missing, archived, other-scope or other-account reference, and writes nothing', async () => {
    const archived = await makeReference(h.owner.client);
    await h.owner.client.ok('update_reference', { reference_id: archived, is_active: false });
    const scope = await h.services.auth.createScope(h.accountId, 'S');
    const scoped = await makeReference(h.owner.client, { scope_id: scope });
    const otherAccount = await h.services.auth.createAccount('other');
    const stranger = await h.principal({ accountId: otherAccount });
    const theirs = await makeReference(stranger.client);
    const before = await h.store.store.db.selectFrom('bits').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const cases: Array<[string, string]> = [
      ['00000000-0000-4000-8000-000000000000', 'REFERENCE_NOT_FOUND'],
      [theirs, 'REFERENCE_NOT_FOUND'],
      [archived, 'REFERENCE_ARCHIVED'],
      [scoped, 'SCOPE_MISMATCH'],
    ];
    for (const [id, code] of cases) {
      const error = await h.owner.client.fail('add_bit', { bit_title: 'x', bit_body: `See [[ref:${id}|it]].` });
      expect(error.code, id).toBe(code);
    }
    const after = await h.store.store.db.selectFrom('bits').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
    const inScope = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'x', bit_body: `See [[ref:${scoped}|it]].`, scope_id: scope });
    expect(inScope.bit_id).toBeTruthy();
  });

  it('keeps a citation whose reference was archived after it was written, so get_bit\'s body writes back', async () => {
    const ref = await makeReference(h.owner.client);
    const { bit_id } = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'cites', bit_body: `See [[ref:${ref}|the manual]].\n` });
    await h.owner.client.ok('update_reference', { reference_id: ref, is_active: false });
    const bit = await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id });
    await h.owner.client.ok('update_bit', { bit_id, bit_body: `${bit.bit_body}\nMore.\n`, content_format: 'markdown' });
    expect((await h.owner.client.ok<{ bit_body: string }>('get_bit', { bit_id })).bit_body).toBe(`See [[ref:${ref}|the manual]].\n\nMore.\n`);
    // A new citation of it is still refused.
    const other = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'x', bit_body: 'x' });
    const error = await h.owner.client.fail('update_bit', { bit_id: other.bit_id, bit_body: `[[ref:${ref}|m]]`, content_format: 'markdown' });
    expect(error.code).toBe('REFERENCE_ARCHIVED');
  });

  it('get_bit lists linked references in position order with the label shown', async () => {
    const first = await makeReference(h.owner.client, { reference_title: 'First' });
    const second = await makeReference(h.owner.client, { reference_title: 'Second' });
    const { bit_id } = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'links', bit_body: 'x' });
    await h.owner.client.ok('link_reference', { bit_id, reference_id: first });
    await h.owner.client.ok('link_reference', { bit_id, reference_id: second, display_label: 'Read me first', position: 0 });
    const bit = await h.owner.client.ok<{ references: Array<{ reference_id: string; label: string; position: number }> }>('get_bit', { bit_id });
    expect(bit.references.map((r) => [r.reference_id, r.label, r.position])).toEqual([
      [second, 'Read me first', 0],
      [first, 'First', 1],
    ]);
  });
});
