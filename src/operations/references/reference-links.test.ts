import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { startHarness, type Harness, type Principal } from '../../../test/harness.js';
import { makeBit, makeReference } from '../../../test/reference-fixtures.js';
import { WaymarkError } from '../../errors.js';
import type { Actor } from '../../services/actor.js';
import { listLinksForBit } from '../../store/repositories/links.repo.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(ENGINES)('link_reference, update_bit_reference_link, unlink_reference on %s', (engine) => {
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

  const list = async (bitId: string) => (await listLinksForBit(h.store.store.db, bitId)).map((l) => [l.reference_id, l.position, l.label]);
  const refs = async (n: number, scope_id?: string) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(await makeReference(h.owner.client, { reference_title: `Ref ${i}`, ...(scope_id ? { scope_id } : {}) }));
    return out;
  };

  it('appends by default, inserts at a position, and lists links in order with their labels', async () => {
    const bit = await makeBit(h);
    const [r0, r1, r2, r3] = await refs(4);
    const first = await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r0 });
    expect(first).toEqual({ bit_id: bit, bit_reference_id: expect.stringMatching(/^[0-9a-f-]{36}$/), reference_id: r0, position: 0 });
    expect(await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r1, display_label: 'Read me' })).toMatchObject({ position: 1 });
    expect(await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r2, position: 0 })).toMatchObject({ position: 0 });
    expect(await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r3, position: 3, last_modified_date_time_utc: 'ignored' })).toMatchObject({ position: 3 });
    expect(await list(bit)).toEqual([
      [r2, 0, 'Ref 2'],
      [r0, 1, 'Ref 0'],
      [r1, 2, 'Read me'],
      [r3, 3, 'Ref 3'],
    ]);
    const links = await listLinksForBit(h.store.store.db, bit);
    expect(links[2]).toEqual({ bit_reference_id: expect.any(String), reference_id: r1, display_label: 'Read me', label: 'Read me', position: 2 });
    expect(links[0]!.display_label).toBeNull();
    const outOfRange = await h.owner.client.fail('link_reference', { bit_id: bit, reference_id: (await refs(1))[0], position: 5 });
    expect(outOfRange.code).toBe('VALIDATION_ERROR');
    for (const bad of [{ position: -1 }, { position: 1.5 }, { display_label: 'x'.repeat(129) }]) {
      expect((await h.owner.client.fail('link_reference', { bit_id: bit, reference_id: r0, ...bad })).code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses a duplicate link (DUPLICATE_REFERENCE_LINK), an archived reference, another scope, an archived bit', async () => {
    const bit = await makeBit(h);
    const [ref, archivedRef] = await refs(2);
    await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: ref });
    const duplicate = await h.owner.client.fail('link_reference', { bit_id: bit, reference_id: ref, position: 0 });
    expect([duplicate.code, duplicate.status]).toEqual(['DUPLICATE_REFERENCE_LINK', 409]);

    await h.owner.client.ok('update_reference', { reference_id: archivedRef, is_active: false });
    const archived = await h.owner.client.fail('link_reference', { bit_id: bit, reference_id: archivedRef });
    expect([archived.code, archived.status]).toEqual(['REFERENCE_ARCHIVED', 422]);

    const [inA] = await refs(1, scopeA);
    const mismatch = await h.owner.client.fail('link_reference', { bit_id: bit, reference_id: inA });
    expect([mismatch.code, mismatch.status]).toEqual(['SCOPE_MISMATCH', 422]);
    const bitInA = await makeBit(h, { scopeId: scopeA });
    expect((await h.owner.client.fail('link_reference', { bit_id: bitInA, reference_id: ref })).code).toBe('SCOPE_MISMATCH');
    await h.owner.client.ok('link_reference', { bit_id: bitInA, reference_id: inA });

    const archivedBit = await makeBit(h, { archived: true });
    const onArchived = await h.owner.client.fail('link_reference', { bit_id: archivedBit, reference_id: ref });
    expect([onArchived.code, onArchived.status]).toEqual(['BIT_ARCHIVED', 422]);
    expect(await list(bit)).toEqual([[ref, 0, 'Ref 0']]);
  });

  it('reports an inaccessible bit or reference as not-found, a visible one the caller may not change as FORBIDDEN', async () => {
    const other = await h.services.auth.createAccount('other');
    const stranger = await h.principal({ accountId: other });
    const theirBit = await makeBit(h, { accountId: other });
    const theirRef = await makeReference(stranger.client);
    const bit = await makeBit(h);
    const [ref] = await refs(1);
    const bitInB = await makeBit(h, { scopeId: scopeB });
    const [refInB] = await refs(1, scopeB);
    const bitInA = await makeBit(h, { scopeId: scopeA });
    const [refInA] = await refs(1, scopeA);

    for (const tool of ['link_reference', 'update_bit_reference_link', 'unlink_reference']) {
      const expectCode = async (p: Principal, args: Record<string, unknown>, code: string) => {
        const error = await p.client.fail(tool, args);
        expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe(code);
      };
      await expectCode(h.owner, { bit_id: MISSING, reference_id: ref }, 'BIT_NOT_FOUND');
      await expectCode(h.owner, { bit_id: theirBit, reference_id: ref }, 'BIT_NOT_FOUND');
      await expectCode(h.owner, { bit_id: bit, reference_id: MISSING }, 'REFERENCE_NOT_FOUND');
      await expectCode(h.owner, { bit_id: bit, reference_id: theirRef }, 'REFERENCE_NOT_FOUND');
      await expectCode(scoped, { bit_id: bitInB, reference_id: refInA }, 'BIT_NOT_FOUND');
      await expectCode(scoped, { bit_id: bitInA, reference_id: refInB }, 'REFERENCE_NOT_FOUND');
      // An account-level bit is visible to the scope-limited principal, but not its to change.
      const forbidden = await scoped.client.fail(tool, { bit_id: bit, reference_id: ref });
      expect([forbidden.code, forbidden.status]).toEqual(['FORBIDDEN', 403]);
      const viewer = await h.principal({ permission: 'view', capabilities: ['read'] });
      await expectCode(viewer, { bit_id: bit, reference_id: ref }, 'FORBIDDEN');
      // Not-found comes before the token's capability and level: a record the caller cannot see is
      // reported as missing to a token that could not change it anyway (Authentication 2).
      await expectCode(viewer, { bit_id: MISSING, reference_id: ref }, 'BIT_NOT_FOUND');
      await expectCode(viewer, { bit_id: bit, reference_id: theirRef }, 'REFERENCE_NOT_FOUND');
      const readOnlyStranger = await h.principal({ accountId: other, permission: 'view', capabilities: ['read'] });
      await expectCode(readOnlyStranger, { bit_id: bit, reference_id: ref }, 'BIT_NOT_FOUND');
      const runOnly = await h.principal({ permission: 'edit', capabilities: ['run'] });
      const noCapability = await runOnly.client.fail(tool, { bit_id: bit, reference_id: ref });
      expect([noCapability.code, noCapability.details?.required_capability]).toEqual(['FORBIDDEN', 'waymark.author']);
      await expectCode(runOnly, { bit_id: theirBit, reference_id: ref }, 'BIT_NOT_FOUND');
    }
    // Within its own scope the scope-limited principal links, changes and unlinks.
    expect(await scoped.client.ok('link_reference', { bit_id: bitInA, reference_id: refInA })).toMatchObject({ position: 0 });
    expect(await scoped.client.ok('update_bit_reference_link', { bit_id: bitInA, reference_id: refInA, display_label: 'Mine' })).toMatchObject({ position: 0 });
    expect(await scoped.client.ok('unlink_reference', { bit_id: bitInA, reference_id: refInA })).toEqual({ bit_id: bitInA, reference_id: refInA });
  });

  it('update_bit_reference_link sets the label and moves the link; repeating the call gives the same state', async () => {
    const bit = await makeBit(h);
    const [r0, r1, r2, r3] = await refs(4);
    for (const r of [r0, r1, r2, r3]) await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r });
    const call = { bit_id: bit, reference_id: r3, display_label: 'First now', position: 0 };
    const once = await h.owner.client.ok('update_bit_reference_link', call);
    const state = await list(bit);
    expect(state).toEqual([
      [r3, 0, 'First now'],
      [r0, 1, 'Ref 0'],
      [r1, 2, 'Ref 1'],
      [r2, 3, 'Ref 2'],
    ]);
    expect(await h.owner.client.ok('update_bit_reference_link', call)).toEqual(once);
    expect(await list(bit)).toEqual(state);
    await h.owner.client.ok('update_bit_reference_link', { bit_id: bit, reference_id: r0, position: 3 });
    expect(await list(bit)).toEqual([
      [r3, 0, 'First now'],
      [r1, 1, 'Ref 1'],
      [r2, 2, 'Ref 2'],
      [r0, 3, 'Ref 0'],
    ]);
    // Only the label: the position stays. null (or empty) goes back to the title.
    expect(await h.owner.client.ok('update_bit_reference_link', { bit_id: bit, reference_id: r3, display_label: null })).toMatchObject({ position: 0 });
    expect((await list(bit))[0]).toEqual([r3, 0, 'Ref 3']);
    expect((await h.owner.client.fail('update_bit_reference_link', { bit_id: bit, reference_id: r3, position: 4 })).code).toBe('VALIDATION_ERROR');
    const [unlinked] = await refs(1);
    const missing = await h.owner.client.fail('update_bit_reference_link', { bit_id: bit, reference_id: unlinked, display_label: 'x' });
    expect([missing.code, missing.status]).toEqual(['BIT_REFERENCE_LINK_NOT_FOUND', 404]);
    const archivedBit = await makeBit(h, { archived: true });
    expect((await h.owner.client.fail('update_bit_reference_link', { bit_id: archivedBit, reference_id: r0 })).code).toBe('BIT_ARCHIVED');
  });

  it('unlink_reference closes up the positions and is not idempotent', async () => {
    const bit = await makeBit(h);
    const [r0, r1, r2] = await refs(3);
    for (const r of [r0, r1, r2]) await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: r });
    expect(await h.owner.client.ok('unlink_reference', { bit_id: bit, reference_id: r1, last_modified_date_time_utc: 'x' })).toEqual({ bit_id: bit, reference_id: r1 });
    expect(await list(bit)).toEqual([
      [r0, 0, 'Ref 0'],
      [r2, 1, 'Ref 2'],
    ]);
    const again = await h.owner.client.fail('unlink_reference', { bit_id: bit, reference_id: r1 });
    expect([again.code, again.status]).toEqual(['BIT_REFERENCE_LINK_NOT_FOUND', 404]);
    await h.owner.client.ok('unlink_reference', { bit_id: bit, reference_id: r0 });
    expect(await list(bit)).toEqual([[r2, 0, 'Ref 2']]);
  });

  it('unlinks from an archived bit, which frees the reference for archiving', async () => {
    const bit = await makeBit(h);
    const [ref] = await refs(1);
    await h.owner.client.ok('link_reference', { bit_id: bit, reference_id: ref });
    await h.store.store.db.updateTable('bits').set({ status: 'archived' }).where('id', '=', bit).execute();
    expect((await h.owner.client.fail('update_reference', { reference_id: ref, is_active: false })).details?.bit_ids).toEqual([bit]);
    await h.owner.client.ok('unlink_reference', { bit_id: bit, reference_id: ref });
    await h.owner.client.ok('update_reference', { reference_id: ref, is_active: false });
  });

  it('keeps positions dense under concurrent links to one bit', async () => {
    const bit = await makeBit(h);
    const many = await refs(8);
    await Promise.all(many.map((reference_id) => h.owner.client.ok('link_reference', { bit_id: bit, reference_id, position: 0 })));
    const positions = (await list(bit)).map((l) => l[1]);
    expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('assertCitable (for bit bodies) refuses a missing, invisible, archived or other-scope reference', async () => {
    const owner: Actor = { accountId: h.accountId, principalId: h.owner.principalId, kind: 'agent', permission: 'admin', scopeId: null, capabilities: [] };
    const scopedActor: Actor = { ...owner, scopeId: scopeA };
    const [ok, archived] = await refs(2);
    const [inA] = await refs(1, scopeA);
    const [inB] = await refs(1, scopeB);
    await h.owner.client.ok('update_reference', { reference_id: archived, is_active: false });
    const check = (actor: Actor, ids: string[], scope: string | null) =>
      h.store.store.transaction((tx) => h.services.references.assertCitable(tx, actor, ids, scope)).then(
        () => 'ok',
        (e: unknown) => (e instanceof WaymarkError ? e.code : String(e)),
      );
    expect(await check(owner, [ok, ok], null)).toBe('ok');
    expect(await check(owner, [], null)).toBe('ok');
    expect(await check(owner, [inA], scopeA)).toBe('ok');
    expect(await check(owner, [ok, MISSING], null)).toBe('REFERENCE_NOT_FOUND');
    expect(await check(scopedActor, [inB], scopeA)).toBe('REFERENCE_NOT_FOUND');
    expect(await check(owner, [archived], null)).toBe('REFERENCE_ARCHIVED');
    expect(await check(owner, [inA], null)).toBe('SCOPE_MISMATCH');
    expect(await check(owner, [ok], scopeA)).toBe('SCOPE_MISMATCH');
    const other = { ...owner, accountId: await h.services.auth.createAccount('x') };
    expect(await check(other, [ok], null)).toBe('REFERENCE_NOT_FOUND');
  });
});
