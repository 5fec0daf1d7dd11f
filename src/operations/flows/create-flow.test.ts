import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { archiveBit, makeBit, restoreBit } from '../../../test/bit-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { activeFlowsStartingAt } from '../../store/repositories/flows.repo.js';
import { FlowsService } from '../../services/flows/flows.service.js';
import type { FlowView as FlowData } from '../../services/flows/shapes.js';


describe.each(ENGINES)('create_flow, update_flow, review_flow on %s', (engine) => {
  let h: Harness;
  let bit: string;
  let scopeId: string;
  let scopedBit: string;
  beforeAll(async () => {
    h = await startHarness(engine);
    bit = await makeBit(h, { title: 'Start here' });
    scopeId = await h.services.auth.createScope(h.accountId, 'team');
    scopedBit = await makeBit(h, { scopeId, title: 'Scoped start' });
  });
  afterAll(async () => h.close());

  const get = (id: string) => h.owner.client.ok<FlowData>('get_flow', { flow_id: id });

  it('creates an active flow with review_status pending and the defaults', async () => {
    const created = await h.owner.client.ok<{ flow_id: string; last_modified_date_time_utc: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: bit });
    expect(Object.keys(created).sort()).toEqual(['flow_id', 'last_modified_date_time_utc']);
    expect(created.last_modified_date_time_utc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const flow = await get(created.flow_id);
    expect(flow).toMatchObject({
      flow_id: created.flow_id,
      flow_title: 'Onboarding',
      flow_description: null,
      flow_categories: [],
      priority: 'medium',
      scope_id: null,
      start_bit_id: bit,
      trail_context_schema: null,
      is_active: true,
      review_status: 'pending',
      created_by: h.owner.principalId,
      last_modified_date_time_utc: created.last_modified_date_time_utc,
    });
  });

  it('stores every field; an empty description stores null', async () => {
    const schema = { type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] };
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', {
      flow_title: 'Full',
      start_bit_id: scopedBit,
      flow_description: 'Everything set',
      flow_categories: ['a', 'b'],
      priority: 'critical',
      scope_id: scopeId,
      trail_context_schema: schema,
    });
    expect(await get(flow_id)).toMatchObject({ flow_description: 'Everything set', flow_categories: ['a', 'b'], priority: 'critical', scope_id: scopeId, trail_context_schema: schema });
    const empty = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Empty description', start_bit_id: bit, flow_description: '' });
    expect((await get(empty.flow_id)).flow_description).toBeNull();
  });

  it('refuses field rule violations with VALIDATION_ERROR and the path', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start_bit_id: bit }, 'flow_title'],
      [{ flow_title: '', start_bit_id: bit }, 'flow_title'],
      [{ flow_title: '   ', start_bit_id: bit }, 'flow_title'],
      [{ flow_title: 'x'.repeat(257), start_bit_id: bit }, 'flow_title'],
      [{ flow_title: 'ok' }, 'start_bit_id'],
      [{ flow_title: 'ok', start_bit_id: bit, flow_description: 'd'.repeat(1025) }, 'flow_description'],
      [{ flow_title: 'ok', start_bit_id: bit, flow_categories: Array.from({ length: 51 }, (_, i) => `c${i}`) }, 'flow_categories'],
      [{ flow_title: 'ok', start_bit_id: bit, flow_categories: ['c'.repeat(129)] }, 'flow_categories[0]'],
      [{ flow_title: 'ok', start_bit_id: bit, priority: 'urgent' }, 'priority'],
      [{ flow_title: 'ok', start_bit_id: bit, is_active: false }, ''],
    ];
    for (const [args, path] of cases) {
      const error = await h.owner.client.fail('create_flow', args);
      expect(error.code, JSON.stringify(args).slice(0, 80)).toBe('VALIDATION_ERROR');
      expect(error.status).toBe(422);
      expect((error.details?.issues as Array<{ path: string }>).map((i) => i.path)).toContain(path);
    }
    // The limits themselves are accepted.
    await h.owner.client.ok('create_flow', { flow_title: 'x'.repeat(256), start_bit_id: bit, flow_description: 'd'.repeat(1024), flow_categories: Array.from({ length: 50 }, () => 'c'.repeat(128)) });
  });

  it('refuses a start bit that is missing, another account\'s, archived or in another scope: FLOW_START_BIT_INVALID', async () => {
    const otherAccount = await h.services.auth.createAccount('other');
    const foreign = await makeBit(h, { accountId: otherAccount });
    const archived = await makeBit(h, { archived: true });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start_bit_id: '00000000-0000-4000-8000-000000000000' }, 'not_found'],
      [{ start_bit_id: foreign }, 'not_found'],
      [{ start_bit_id: archived }, 'archived'],
      [{ start_bit_id: scopedBit }, 'scope_mismatch'],
      [{ start_bit_id: bit, scope_id: scopeId }, 'scope_mismatch'],
    ];
    for (const [args, reason] of cases) {
      const error = await h.owner.client.fail('create_flow', { flow_title: 'Bad start', ...args });
      expect(error.code).toBe('FLOW_START_BIT_INVALID');
      expect(error.status).toBe(422);
      expect(error.details?.reason).toBe(reason);
    }
  });

  it('refuses a scope that is not visible: SCOPE_NOT_FOUND; a scope-limited token writes only in its scope', async () => {
    const otherAccount = await h.services.auth.createAccount('other2');
    const foreignScope = await h.services.auth.createScope(otherAccount, 'theirs');
    for (const scope of ['00000000-0000-4000-8000-000000000000', foreignScope]) {
      const error = await h.owner.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit, scope_id: scope });
      expect(error.code).toBe('SCOPE_NOT_FOUND');
      expect(error.status).toBe(404);
    }
    const otherScope = await h.services.auth.createScope(h.accountId, 'elsewhere');
    const limited = await h.principal({ permission: 'edit', capabilities: ['author'], scopeId });
    expect((await limited.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit, scope_id: otherScope })).code).toBe('SCOPE_NOT_FOUND');
    const atAccount = await limited.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit });
    expect(atAccount.code).toBe('FORBIDDEN');
    expect(atAccount.message).toContain(scopeId);
    await limited.client.ok('create_flow', { flow_title: 'in scope', start_bit_id: scopedBit, scope_id: scopeId });
  });

  it('checks trail_context_schema against the profile: INVALID_TRAIL_CONTEXT_SCHEMA with every issue', async () => {
    const error = await h.owner.client.fail('create_flow', {
      flow_title: 'x',
      start_bit_id: bit,
      trail_context_schema: { type: 'object', properties: { a: { $ref: '#/x', type: 'string' }, b: { type: 'object' } } },
    });
    expect(error.code).toBe('INVALID_TRAIL_CONTEXT_SCHEMA');
    expect(error.status).toBe(422);
    expect((error.details?.issues as Array<{ path: string }>).map((i) => i.path)).toEqual([
      'trail_context_schema.properties.a.$ref',
      'trail_context_schema.properties.b.type',
    ]);
  });

  it('a schema is checked only once the flow and the right to write it are established', async () => {
    const bad = { type: 'object', properties: { a: { type: 'object' } } };
    const missing = await h.owner.client.fail('update_flow', { flow_id: '00000000-0000-4000-8000-000000000000', trail_context_schema: bad });
    expect(missing.code).toBe('FLOW_NOT_FOUND');
    const otherAccount = await h.services.auth.createAccount('schema-probe');
    const stranger = await h.principal({ accountId: otherAccount });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Mine', start_bit_id: bit });
    expect((await stranger.client.fail('update_flow', { flow_id, trail_context_schema: bad })).code).toBe('FLOW_NOT_FOUND');
    const scoped = await h.principal({ scopeId, permission: 'edit', capabilities: ['author'] });
    expect((await scoped.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit, trail_context_schema: bad })).code).toBe('FORBIDDEN');
    expect((await h.owner.client.fail('update_flow', { flow_id, trail_context_schema: bad })).code).toBe('INVALID_TRAIL_CONTEXT_SCHEMA');
  });

  it('needs author capability and Edit permission: FORBIDDEN', async () => {
    const reader = await h.principal({ permission: 'admin', capabilities: ['read'] });
    expect((await reader.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit })).details).toEqual({ required_capability: 'waymark.author' });
    const viewer = await h.principal({ permission: 'view', capabilities: ['author'] });
    expect((await viewer.client.fail('create_flow', { flow_title: 'x', start_bit_id: bit })).details).toEqual({ required_permission: 'edit' });
  });

  it('update_flow changes only what is given, and last_modified advances', async () => {
    const { flow_id, last_modified_date_time_utc: t0 } = await h.owner.client.ok<{ flow_id: string; last_modified_date_time_utc: string }>('create_flow', {
      flow_title: 'Before',
      start_bit_id: bit,
      flow_description: 'desc',
      flow_categories: ['x', 'y'],
      priority: 'high',
      trail_context_schema: { type: 'object', properties: { n: { type: 'integer' } } },
    });
    const u1 = await h.owner.client.ok<{ flow_id: string; last_modified_date_time_utc: string }>('update_flow', { flow_id, flow_title: 'After', last_modified_date_time_utc: 'ignored' });
    expect(u1.flow_id).toBe(flow_id);
    expect(u1.last_modified_date_time_utc > t0).toBe(true);
    expect(await get(flow_id)).toMatchObject({ flow_title: 'After', flow_description: 'desc', flow_categories: ['x', 'y'], priority: 'high', is_active: true, last_modified_date_time_utc: u1.last_modified_date_time_utc });
    const u2 = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_flow', { flow_id, flow_description: '', flow_categories: ['z'], priority: 'low', trail_context_schema: null });
    expect(u2.last_modified_date_time_utc > u1.last_modified_date_time_utc).toBe(true);
    expect(await get(flow_id)).toMatchObject({ flow_title: 'After', flow_description: null, flow_categories: ['z'], priority: 'low', trail_context_schema: null });
    const u3 = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('update_flow', { flow_id });
    expect(u3.last_modified_date_time_utc > u2.last_modified_date_time_utc).toBe(true);
    await h.owner.client.ok('update_flow', { flow_id, flow_categories: [] });
    expect((await get(flow_id)).flow_categories).toEqual([]);
  });

  it('update_flow refuses a blank title with 422, start_bit_id null and invalid start bits, unknown fields', async () => {
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Keep', start_bit_id: bit });
    for (const title of ['', '  ']) {
      const error = await h.owner.client.fail('update_flow', { flow_id, flow_title: title });
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
    }
    const nullStart = await h.owner.client.fail('update_flow', { flow_id, start_bit_id: null });
    expect(nullStart).toMatchObject({ code: 'FLOW_START_BIT_INVALID', status: 422 });
    const archived = await makeBit(h, { archived: true });
    expect((await h.owner.client.fail('update_flow', { flow_id, start_bit_id: archived })).details?.reason).toBe('archived');
    expect((await h.owner.client.fail('update_flow', { flow_id, start_bit_id: scopedBit })).details?.reason).toBe('scope_mismatch');
    expect((await h.owner.client.fail('update_flow', { flow_id, scope_id: scopeId })).code).toBe('VALIDATION_ERROR');
    expect((await get(flow_id)).flow_title).toBe('Keep');
    const other = await makeBit(h, { title: 'Other start' });
    await h.owner.client.ok('update_flow', { flow_id, start_bit_id: other });
    expect((await get(flow_id)).start_bit_id).toBe(other);
  });

  it('a flow of another account, or of an invisible scope, is FLOW_NOT_FOUND to every flow tool', async () => {
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Mine', start_bit_id: bit });
    const otherAccount = await h.services.auth.createAccount('stranger');
    const stranger = await h.principal({ accountId: otherAccount });
    for (const [tool, args] of [
      ['get_flow', {}],
      ['update_flow', { flow_title: 'hacked' }],
      ['review_flow', { review_status: 'approved' }],
    ] as const) {
      const error = await stranger.client.fail(tool, { flow_id, ...args });
      expect(error).toMatchObject({ code: 'FLOW_NOT_FOUND', status: 404 });
    }
    const scoped = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Scoped', start_bit_id: scopedBit, scope_id: scopeId });
    const otherScope = await h.services.auth.createScope(h.accountId, 'other team');
    const outsider = await h.principal({ scopeId: otherScope });
    expect((await outsider.client.fail('get_flow', { flow_id: scoped.flow_id })).code).toBe('FLOW_NOT_FOUND');
    // An account-level flow is visible to a scope-limited token but not writable by it.
    await outsider.client.ok('get_flow', { flow_id });
    expect((await outsider.client.fail('update_flow', { flow_id, flow_title: 'x' })).code).toBe('FORBIDDEN');
  });

  it('lifecycle: deactivate; re-activation needs approval and an active start bit, with every reason listed', async () => {
    const start = await makeBit(h, { title: 'Lifecycle start' });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Lifecycle', start_bit_id: start });
    expect(await activeFlowsStartingAt(h.store.store.db, start)).toEqual([flow_id]);
    expect(await FlowsService.activeFlowsStartingAt(h.store.store.db, start)).toEqual([flow_id]);
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    expect((await get(flow_id)).is_active).toBe(false);
    expect(await activeFlowsStartingAt(h.store.store.db, start)).toEqual([]);
    // Deactivating again is harmless.
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });

    // pending review, and (after archiving) an archived start bit: both reasons.
    await archiveBit(h, start);
    const both = await h.owner.client.fail('update_flow', { flow_id, is_active: true });
    expect(both).toMatchObject({ code: 'FLOW_ACTIVATION_REFUSED', status: 422 });
    expect((both.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['review_status_not_approved', 'start_bit_archived']);
    expect(both.message).toContain('review_flow');

    // A refused activation changes nothing else in the call either.
    expect((await h.owner.client.fail('update_flow', { flow_id, is_active: true, flow_title: 'Changed' })).code).toBe('FLOW_ACTIVATION_REFUSED');
    expect((await get(flow_id)).flow_title).toBe('Lifecycle');

    const reviewed = await h.owner.client.ok<{ review_status: string; is_active: boolean }>('review_flow', { flow_id, review_status: 'approved' });
    expect(reviewed).toMatchObject({ flow_id, review_status: 'approved', is_active: false });
    const one = await h.owner.client.fail('update_flow', { flow_id, is_active: true });
    expect((one.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['start_bit_archived']);

    await restoreBit(h, start);
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'changes_requested' });
    const review = await h.owner.client.fail('update_flow', { flow_id, is_active: true });
    expect((review.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['review_status_not_approved']);

    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    expect(await get(flow_id)).toMatchObject({ is_active: true, review_status: 'approved' });
    // Activating an active flow changes nothing and asks nothing.
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'pending' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    expect(await get(flow_id)).toMatchObject({ is_active: true, review_status: 'pending' });
  });

  it('a new start bit needs review again: re-activation in the same call is refused, and succeeds once approved', async () => {
    const start = await makeBit(h);
    const next = await makeBit(h);
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Repoint', start_bit_id: start });
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    await archiveBit(h, start);
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    // The new start bit clears the archived-start reason, but what was approved started elsewhere.
    const refused = await h.owner.client.fail('update_flow', { flow_id, is_active: true, start_bit_id: next });
    expect((refused.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['review_status_not_approved']);
    expect(await get(flow_id)).toMatchObject({ is_active: false, start_bit_id: start, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, start_bit_id: next });
    expect(await get(flow_id)).toMatchObject({ is_active: false, start_bit_id: next, review_status: 'pending' });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    expect(await get(flow_id)).toMatchObject({ is_active: true, start_bit_id: next, review_status: 'approved' });
  });

  it('an editor cannot repoint or re-schema an approved flow and re-activate it without review', async () => {
    const start = await makeBit(h);
    const other = await makeBit(h);
    const schema = { type: 'object', properties: { n: { type: 'integer' }, name: { type: 'string' } } };
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Reviewed', start_bit_id: start, trail_context_schema: schema });
    const editor = await h.principal({ permission: 'edit', capabilities: ['author'] });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });

    // Unchanged values (the same start bit, the same schema with its keys in another order) keep the approval.
    await editor.client.ok('update_flow', { flow_id, start_bit_id: start, trail_context_schema: { properties: { name: { type: 'string' }, n: { type: 'integer' } }, type: 'object' }, flow_title: 'Renamed' });
    expect(await get(flow_id)).toMatchObject({ review_status: 'approved', is_active: true });

    // A new start bit on an active approved flow: it stays active, and goes back to review.
    await editor.client.ok('update_flow', { flow_id, start_bit_id: other });
    expect(await get(flow_id)).toMatchObject({ review_status: 'pending', is_active: true, start_bit_id: other });
    await editor.client.ok('update_flow', { flow_id, is_active: false });
    expect((await editor.client.fail('update_flow', { flow_id, is_active: true })).code).toBe('FLOW_ACTIVATION_REFUSED');

    // A changed schema, the same.
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await editor.client.ok('update_flow', { flow_id, trail_context_schema: { type: 'object', properties: { n: { type: 'number' } } } });
    expect(await get(flow_id)).toMatchObject({ review_status: 'pending' });
    const refused = await editor.client.fail('update_flow', { flow_id, is_active: true });
    expect((refused.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['review_status_not_approved']);

    // Removing the schema is a change too; changes_requested is left as it is.
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await editor.client.ok('update_flow', { flow_id, trail_context_schema: null });
    expect(await get(flow_id)).toMatchObject({ review_status: 'pending', trail_context_schema: null });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'changes_requested' });
    await editor.client.ok('update_flow', { flow_id, start_bit_id: start });
    expect(await get(flow_id)).toMatchObject({ review_status: 'changes_requested' });
  });

  it('review_flow needs Admin and author, and a known status', async () => {
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Review me', start_bit_id: bit });
    const editor = await h.principal({ permission: 'edit', capabilities: ['author'] });
    expect((await editor.client.fail('review_flow', { flow_id, review_status: 'approved' })).details).toEqual({ required_permission: 'admin' });
    const reader = await h.principal({ permission: 'admin', capabilities: ['read'] });
    expect((await reader.client.fail('review_flow', { flow_id, review_status: 'approved' })).code).toBe('FORBIDDEN');
    expect((await h.owner.client.fail('review_flow', { flow_id, review_status: 'done' })).code).toBe('VALIDATION_ERROR');
    const before = (await get(flow_id)).last_modified_date_time_utc;
    const after = await h.owner.client.ok<{ last_modified_date_time_utc: string }>('review_flow', { flow_id, review_status: 'changes_requested' });
    expect(after.last_modified_date_time_utc > before).toBe(true);
    expect((await get(flow_id)).review_status).toBe('changes_requested');
  });

  it('get_flow needs read or author: a run-only token is FORBIDDEN', async () => {
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Readable', start_bit_id: bit });
    const runner = await h.principal({ permission: 'view', capabilities: ['run'] });
    expect((await runner.client.fail('get_flow', { flow_id })).details).toEqual({ required_capability: 'waymark.read' });
    const reader = await h.principal({ permission: 'view', capabilities: ['read'] });
    await reader.client.ok('get_flow', { flow_id });
  });
});
