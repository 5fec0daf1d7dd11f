/**
 * get_revision, diff_revisions and restore_revision (issue 26), through the real server and SDK client on both
 * engines: a bit, flow or reference exactly as it was, a readable diff, a restore through the normal write path,
 * flow versions with "changed since approval", and trails that run the approved version.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { addTestBit, connectTestBits } from '../../../test/graph-fixtures.js';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { bodyOf, p, textArea } from '../../../test/trail-fixtures.js';
import type { HistoryPage } from '../../services/events/shapes.js';
import type { RestoredRevision, RevisionDiff, RevisionView } from '../../services/revisions/shapes.js';

interface BitView {
  bit_title: string;
  bit_body: string;
  elements: Array<{ id: string }>;
  connections: Array<{ connection_id: string }>;
}

describe.each(ENGINES)('revisions on %s', (engine) => {
  let h: Harness;
  let web: WebServer;

  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  const bit = (bit_id: string) => h.owner.client.ok<BitView>('get_bit', { bit_id });

  it('keeps every change of a bit as a revision that reads exactly as get_bit read it then', async () => {
    const { bit_id } = await addTestBit(h, { title: 'Onboard', blocks: [p('First paragraph.'), p('Second paragraph.')] });
    const first = await bit(bit_id);
    await h.owner.client.ok('update_bit', { bit_id, content_format: 'markdown', bit_title: 'Onboard a person', bit_body: first.bit_body.replace('Second paragraph.', 'Second paragraph, rewritten.') });
    const second = await bit(bit_id);

    const r1 = await h.owner.client.ok<RevisionView>('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 1 });
    expect(r1.bit).toEqual(first);
    expect(r1.latest_revision).toBe(2);
    expect(r1.changed_by).toEqual({ principal_id: h.owner.principalId, principal_kind: 'agent', client_name: null, operation: 'add_bit' });
    const r2 = await h.owner.client.ok<RevisionView>('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 2 });
    expect(r2.bit).toEqual(second);
    expect(r2.changed_by?.operation).toBe('update_bit');
    const slate = await h.owner.client.ok<RevisionView>('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 2, format: 'slate' });
    expect(slate.bit?.bit_body).toEqual((await h.owner.client.ok<BitView>('get_bit', { bit_id, format: 'slate' })).bit_body);

    const missing = await h.owner.client.fail('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 9 });
    expect(missing.code).toBe('REVISION_NOT_FOUND');
    expect(missing.details).toMatchObject({ first_revision: 1, latest_revision: 2 });
    expect((await h.owner.client.fail('get_revision', { resource_type: 'flow', resource_id: bit_id, revision: 1 })).code).toBe('FLOW_NOT_FOUND');
  });

  it('diffs two revisions: body lines, fields, elements and connections named by label', async () => {
    const target = await addTestBit(h, { title: 'Next step' });
    const { bit_id } = await addTestBit(h, { title: 'Collect', blocks: [p('Ask for the papers.'), p('Check them.')] });
    const before = await bit(bit_id);
    const notes = bodyOf([textArea('notes')]);
    await h.owner.client.ok('update_bit', {
      bit_id,
      content_format: 'markdown',
      bit_body: `${before.bit_body.replace('Check them.', 'Check them twice.')}\n\n${notes.markdown}`,
      elements: notes.elements,
    });
    await connectTestBits(h, bit_id, target.bit_id, { label: 'Papers done' });

    const diff = await h.owner.client.ok<RevisionDiff>('diff_revisions', { resource_type: 'bit', resource_id: bit_id, from: 1 });
    expect(diff.from_revision).toBe(1);
    expect(diff.to_revision).toBe(diff.to_revision);
    expect(diff.body?.unified).toContain('-Check them.');
    expect(diff.body?.unified).toContain('+Check them twice.');
    expect(diff.body?.unified).not.toContain('Ask for the papers.\n-');
    expect(diff.elements.added).toEqual([expect.objectContaining({ element_type: 'text-area', label: 'Notes' })]);
    expect(diff.connections.added).toEqual([expect.objectContaining({ target_bit_id: target.bit_id, label: 'Papers done' })]);
    expect(diff.elements.removed).toEqual([]);

    // The default: the latest against the one before it.
    const last = await h.owner.client.ok<RevisionDiff>('diff_revisions', { resource_type: 'bit', resource_id: bit_id });
    expect(last.to_revision - last.from_revision).toBe(1);
    const renamed = await h.owner.client.ok('update_bit', { bit_id, bit_title: 'Collect the papers' });
    expect(renamed).toBeTruthy();
    const fields = await h.owner.client.ok<RevisionDiff>('diff_revisions', { resource_type: 'bit', resource_id: bit_id });
    expect(fields.fields).toEqual([{ field: 'title', before: 'Collect', after: 'Collect the papers' }]);
    expect(fields.body).toBeNull();
  });

  it('restores an old revision through update_bit, as a new revision, and refuses what update_bit refuses', async () => {
    const { bit_id } = await addTestBit(h, { title: 'Policy', blocks: [p('Version one.'), textArea('notes')] });
    const v1 = await bit(bit_id);
    await h.owner.client.ok('update_bit', { bit_id, content_format: 'markdown', bit_title: 'Policy v2', bit_body: 'Version two.', remove_node_ids: v1.elements.map((e) => e.id) });
    const restored = await h.owner.client.ok<RestoredRevision>('restore_revision', { resource_type: 'bit', resource_id: bit_id, revision: 1 });
    expect(restored).toMatchObject({ restored_revision: 1, revision: 3 });
    const now = await bit(bit_id);
    const { last_modified_date_time_utc: _a, ...nowFields } = now as BitView & { last_modified_date_time_utc: string };
    const { last_modified_date_time_utc: _b, ...v1Fields } = v1 as BitView & { last_modified_date_time_utc: string };
    expect(nowFields).toEqual(v1Fields);
    const history = await h.owner.client.ok<HistoryPage>('list_history', { resource_type: 'bit', resource_id: bit_id });
    expect(history.events.map((e) => [e.operation, e.revision])).toEqual([
      ['restore_revision', 3],
      ['update_bit', 2],
      ['add_bit', 1],
    ]);

    // A read-only token may read revisions but not restore one; an archived bit refuses as update_bit does.
    const reader = await h.principal({ capabilities: ['read'], permission: 'view' });
    expect((await reader.client.ok<RevisionView>('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 2 })).bit?.bit_title).toBe('Policy v2');
    expect((await reader.client.fail('restore_revision', { resource_type: 'bit', resource_id: bit_id, revision: 2 })).code).toBe('FORBIDDEN');
    await h.owner.client.ok('archive_bit', { bit_id });
    const events = (await h.owner.client.ok<HistoryPage>('list_history', { limit: 1 })).events[0]?.seq;
    expect((await h.owner.client.fail('restore_revision', { resource_type: 'bit', resource_id: bit_id, revision: 2 })).code).toBe('BIT_ARCHIVED');
    expect((await h.owner.client.ok<HistoryPage>('list_history', { limit: 1 })).events[0]?.seq).toBe(events);
  });

  it('keeps references\' and flows\' revisions too, and restores them', async () => {
    const { reference_id } = await h.owner.client.ok<{ reference_id: string }>('create_reference', {
      reference_title: 'Handbook',
      reference_content: [{ type: 'p', children: [{ text: 'Rule one.' }] }],
    });
    await h.owner.client.ok('update_reference', { reference_id, reference_content: [{ type: 'p', children: [{ text: 'Rule two.' }] }] });
    const diff = await h.owner.client.ok<RevisionDiff>('diff_revisions', { resource_type: 'reference', resource_id: reference_id });
    expect(diff.body?.unified).toContain('-Rule one.');
    expect(diff.body?.unified).toContain('+Rule two.');
    await h.owner.client.ok('restore_revision', { resource_type: 'reference', resource_id: reference_id, revision: 1 });
    const ref = await h.owner.client.ok<{ reference_content: unknown }>('get_reference', { reference_id });
    expect(ref.reference_content).toEqual([{ type: 'p', children: [{ text: 'Rule one.' }] }]);
  });

  it('fixes a flow version on approval, says what changed since, and runs the approved version on request', async () => {
    const start = await addTestBit(h, { title: 'Start here', blocks: [p('Welcome aboard.')] });
    const next = await addTestBit(h, { title: 'Then this' });
    await connectTestBits(h, start.bit_id, next.bit_id);
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Onboarding', start_bit_id: start.bit_id });
    expect((await h.owner.client.ok<{ approval: unknown }>('get_flow', { flow_id })).approval).toBeNull();
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    const approved = await h.owner.client.ok<{ approval: { version: number; changed_since: boolean } }>('get_flow', { flow_id });
    expect(approved.approval).toMatchObject({ version: 1, changed_since: false });

    const startBody = (await bit(start.bit_id)).bit_body;
    await h.owner.client.ok('update_bit', { bit_id: start.bit_id, content_format: 'markdown', bit_body: startBody.replace('Welcome aboard.', 'Welcome aboard, edited.') });
    const added = await addTestBit(h, { title: 'A new branch' });
    await connectTestBits(h, next.bit_id, added.bit_id);
    expect((await h.owner.client.ok<{ approval: { changed_since: boolean } }>('get_flow', { flow_id })).approval.changed_since).toBe(true);

    const diff = await h.owner.client.ok<RevisionDiff>('diff_revisions', { resource_type: 'flow', resource_id: flow_id });
    expect(diff.from_version).toBe(1);
    const changes = Object.fromEntries((diff.graph?.bits ?? []).map((b) => [b.bit_title, b.change]));
    expect(changes).toEqual({ 'Start here': 'changed', 'Then this': 'changed', 'A new branch': 'added' });
    const startChange = diff.graph?.bits.find((b) => b.bit_id === start.bit_id);
    expect(startChange?.diff?.body?.unified).toContain('+Welcome aboard, edited.');
    expect(diff.graph?.connections.added).toEqual([expect.objectContaining({ source_bit_id: next.bit_id, target_bit_id: added.bit_id })]);

    // A trail on the approved version runs the bits as approved; by default, as they are now.
    const onApproved = await h.owner.client.ok<{ flow_version: number; current_step: { bit_body: string; bit_revision: number } }>('start_trail', { flow_id, version: 'approved' });
    expect(onApproved.flow_version).toBe(1);
    expect(onApproved.current_step.bit_body).toContain('Welcome aboard.');
    expect(onApproved.current_step.bit_body).not.toContain('edited');
    const onCurrent = await h.owner.client.ok<{ flow_version: number | null; current_step: { bit_body: string; bit_revision: number } }>('start_trail', { flow_id });
    expect(onCurrent.flow_version).toBeNull();
    expect(onCurrent.current_step.bit_body).toContain('Welcome aboard, edited.');
    expect(onCurrent.current_step.bit_revision).toBeGreaterThan(onApproved.current_step.bit_revision);
    const seen = await h.owner.client.ok<RevisionView>('get_revision', { resource_type: 'bit', resource_id: start.bit_id, revision: onApproved.current_step.bit_revision });
    expect(seen.bit?.bit_body).toBe(startBody);

    // A bit of the approved version archived since is still run as approved.
    await h.owner.client.ok('archive_bit', { bit_id: next.bit_id });
    const approvedTrail = (onApproved as unknown as { trail_id: string }).trail_id;
    const moved = await h.owner.client.ok<{ current_step: { bit_id: string; bit_title: string } | null }>('advance_trail', { trail_id: approvedTrail });
    expect(moved.current_step?.bit_id).toBe(next.bit_id);
    expect(moved.current_step?.bit_title).toBe('Then this');

    const unapproved = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Draft', start_bit_id: added.bit_id });
    await h.owner.client.ok('review_flow', { flow_id: unapproved.flow_id, review_status: 'changes_requested' });
    expect((await h.owner.client.fail('start_trail', { flow_id: unapproved.flow_id, version: 'approved' })).code).toMatch(/FLOW_INACTIVE|FLOW_NOT_APPROVED/);
  });

  it('shows nothing of another account or a hidden scope, and answers the same over REST', async () => {
    const scopeId = await h.services.auth.createScope(h.accountId, 'Hidden');
    const { bit_id } = await addTestBit(h, { title: 'Scoped', scopeId });
    const otherScope = await h.services.auth.createScope(h.accountId, 'Other');
    const outsider = await h.principal({ scopeId: otherScope, capabilities: ['read'], permission: 'view' });
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('Elsewhere') });
    for (const caller of [outsider, stranger]) {
      expect((await caller.client.fail('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 1 })).code).toBe('BIT_NOT_FOUND');
      expect((await caller.client.fail('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 7 })).code).toBe('BIT_NOT_FOUND');
      expect((await caller.client.fail('diff_revisions', { resource_type: 'bit', resource_id: bit_id })).code).toBe('BIT_NOT_FOUND');
    }
    const headers = { authorization: `Bearer ${h.owner.token}` };
    const got = await fetch(`${web.origin}/api/v1/history/bit/${bit_id}/revisions/1`, { headers });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { data: RevisionView }).data).toEqual(await h.owner.client.ok('get_revision', { resource_type: 'bit', resource_id: bit_id, revision: 1 }));
    const diff = await fetch(`${web.origin}/api/v1/history/bit/${bit_id}/diff?from=1&to=1`, { headers });
    expect(((await diff.json()) as { data: RevisionDiff }).data.fields).toEqual([]);
    const restore = await fetch(`${web.origin}/api/v1/history/bit/${bit_id}/revisions/1/restore`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    expect(restore.status).toBe(200);
    const nope = await fetch(`${web.origin}/api/v1/history/bit/${bit_id}/revisions/5`, { headers });
    expect(nope.status).toBe(404);
    expect(((await nope.json()) as { error: { code: string } }).error.code).toBe('REVISION_NOT_FOUND');
  });

  it('costs at most 300 tokens of a prompt per new tool (name, description, input schema)', async () => {
    const { tools } = await h.owner.client.client.listTools();
    for (const name of ['get_revision', 'diff_revisions', 'restore_revision']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(encode(JSON.stringify({ name, description: tool?.description, inputSchema: tool?.inputSchema })).length, name).toBeLessThanOrEqual(300);
    }
  });

  it('filters list_history by time', async () => {
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const { bit_id } = await addTestBit(h, { title: 'Timed' });
    const since = await h.owner.client.ok<HistoryPage>('list_history', { since: before, limit: 100 });
    expect(since.events.map((e) => e.resource_id)).toContain(bit_id);
    const until = await h.owner.client.ok<HistoryPage>('list_history', { until: before, limit: 100 });
    expect(until.events.map((e) => e.resource_id)).not.toContain(bit_id);
    expect((await h.owner.client.fail('list_history', { since: 'yesterday' })).code).toBe('VALIDATION_ERROR');
    expect((await h.owner.client.fail('list_history', { until: '2026-02-31T00:00:00Z' })).code).toBe('VALIDATION_ERROR');
  });
});
