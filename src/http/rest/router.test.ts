import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../../test/engines.js';
import { archiveBit, makeBit } from '../../../test/bit-fixtures.js';
import { silentLogger, startHarness, type Harness } from '../../../test/harness.js';
import { createHttpApp } from '../app.js';

describe.each(ENGINES)('REST /api/v1 on %s', (engine) => {
  let h: Harness;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    h = await startHarness(engine);
    const app = createHttpApp(h.services, silentLogger, { host: '127.0.0.1', port: 0 });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  const restore = (bitId: string, token: string | null) =>
    fetch(`${base}/bits/${bitId}/restore`, { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it('restores an archived bit: active again, a later timestamp, its cleared connections stay cleared', async () => {
    const s = h.store.store;
    const bit = await makeBit(h, { title: 'To restore' });
    const other = await makeBit(h);
    await h.owner.client.ok('connect_bits', { source_bit_id: bit, target_bit_id: other });
    // archive_bit archives the bit and clears its connections from rows and bodies.
    await archiveBit(h, bit);
    const before = await s.db.selectFrom('bits').select('updated_at').where('id', '=', bit).executeTakeFirstOrThrow();
    const res = await restore(bit, h.owner.token);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; data: { bit_id: string; status: string; last_modified_date_time_utc: string; was_already_active: boolean } };
    expect(body).toMatchObject({ success: true, data: { bit_id: bit, status: 'active', was_already_active: false } });
    expect(body.data.last_modified_date_time_utc > before.updated_at).toBe(true);
    const row = await s.db.selectFrom('bits').selectAll().where('id', '=', bit).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'active', updated_at: body.data.last_modified_date_time_utc });
    expect(await s.db.selectFrom('connections').select('id').where('source_bit_id', '=', bit).execute()).toEqual([]);
    const listed = await h.owner.client.ok<{ bits: Array<{ bit_id: string }> }>('list_bits', {});
    expect(listed.bits.map((b) => b.bit_id)).toContain(bit);
    // Again: nothing to do, nothing changes.
    const again = (await (await restore(bit, h.owner.token)).json()) as { data: { was_already_active: boolean; last_modified_date_time_utc: string } };
    expect(again.data).toMatchObject({ was_already_active: true, last_modified_date_time_utc: body.data.last_modified_date_time_utc });
  });

  it('the whole lifecycle with the tools: archive is refused for an active flow\'s start, restore lets the flow re-activate', async () => {
    const add = (title: string) => h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: title, bit_body: `${title} step.` });
    const start = (await add('Lifecycle start')).bit_id;
    const next = (await add('Lifecycle next')).bit_id;
    await h.owner.client.ok('connect_bits', { source_bit_id: start, target_bit_id: next });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'Lifecycle', start_bit_id: start });
    const refused = await h.owner.client.fail('archive_bit', { bit_id: start });
    expect(refused).toMatchObject({ code: 'BIT_IS_ACTIVE_FLOW_START', details: { flow_ids: [flow_id] } });
    await h.owner.client.ok('update_flow', { flow_id, is_active: false });
    await h.owner.client.ok('archive_bit', { bit_id: start });
    await h.owner.client.ok('review_flow', { flow_id, review_status: 'approved' });
    const blocked = await h.owner.client.fail('update_flow', { flow_id, is_active: true });
    expect((blocked.details?.reasons as Array<{ reason: string }>).map((r) => r.reason)).toEqual(['start_bit_archived']);

    const res = await restore(start, h.owner.token);
    expect(res.status).toBe(200);
    const got = await h.owner.client.ok<{ status: string; connections: unknown[]; bit_body: string }>('get_bit', { bit_id: start });
    expect(got.status).toBe('active');
    // The archive cleared the connection; the restore does not bring it back.
    expect(got.connections).toEqual([]);
    expect(got.bit_body).not.toContain('bit-connection:');
    await h.owner.client.ok('update_flow', { flow_id, is_active: true });
    const { graph } = await h.owner.client.ok<{ graph: { bits: Array<{ bit_id: string }> } }>('get_flow', { flow_id, include_graph: true });
    expect(graph.bits.map((b) => b.bit_id)).toEqual([start]);
  });

  it('answers errors in the envelope with the HTTP status: 404, 403, 401', async () => {
    const missing = await restore('00000000-0000-4000-8000-000000000000', h.owner.token);
    expect(missing.status).toBe(404);
    const error = ((await missing.json()) as { success: boolean; error: { code: string; message: string; errorId: string; status: number } });
    expect(error.success).toBe(false);
    expect(error.error).toMatchObject({ code: 'BIT_NOT_FOUND', status: 404 });
    expect(error.error.errorId).toMatch(/^[0-9a-f-]{36}$/);

    const bit = await makeBit(h, { archived: true });
    const stranger = await h.principal({ accountId: await h.services.auth.createAccount('x') });
    expect((await restore(bit, stranger.token)).status).toBe(404);
    const reader = await h.principal({ permission: 'admin', capabilities: ['read', 'run'] });
    const noCap = await restore(bit, reader.token);
    expect(noCap.status).toBe(403);
    expect(((await noCap.json()) as { error: { details: unknown } }).error.details).toEqual({ required_capability: 'waymark.author' });
    const viewer = await h.principal({ permission: 'view', capabilities: ['author'] });
    expect(((await (await restore(bit, viewer.token)).json()) as { error: { details: unknown } }).error.details).toEqual({ required_permission: 'edit' });
    const scope = await h.services.auth.createScope(h.accountId, 'team');
    const limited = await h.principal({ permission: 'edit', capabilities: ['author'], scopeId: scope });
    const account = await restore(bit, limited.token);
    expect(account.status).toBe(403);
    expect(((await account.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    const unauthenticated = await restore(bit, null);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await h.store.store.db.selectFrom('bits').select('status').where('id', '=', bit).executeTakeFirstOrThrow()).status).toBe('archived');
  });

  it('refuses a revoked token with 401, on /mcp and on REST, and keeps the others', async () => {
    const agent = await h.principal({ permission: 'edit', capabilities: ['author', 'read'] });
    const bit = await makeBit(h, { archived: true });
    const mcp = (token: string) =>
      fetch(base.replace('/api/v1', '/mcp'), {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await mcp(agent.token)).status).toBe(200);
    const [row] = (await h.services.auth.listTokens(h.accountId)).filter((t) => t.principalId === agent.principalId);
    expect(await h.services.auth.revokeToken(row.id)).toMatchObject({ already: false });
    const refused = await mcp(agent.token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await restore(bit, agent.token)).status).toBe(401);
    expect((await mcp(h.owner.token)).status).toBe(200);
  });

  it('answers JSON in the envelope for a wrong method (405 with Allow) and an unknown path (404), never HTML', async () => {
    const auth = { Authorization: `Bearer ${h.owner.token}` };
    type Refusal = { success: boolean; error: { code: string; message: string; errorId: string; status: number } };
    const bit = await makeBit(h, { archived: true });
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${base}/bits/${bit}/restore`, { method, headers: auth });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as Refusal;
      expect(body).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED', status: 405, message: `${method} is not allowed on /api/v1/bits/${bit}/restore; use POST.` } });
      expect(body.error.errorId).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Nothing was restored by the refused calls.
    expect((await h.store.store.db.selectFrom('bits').select('status').where('id', '=', bit).executeTakeFirstOrThrow()).status).toBe('archived');
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/bits/restore/extra/more'],
      ['POST', `/bits/${bit}/restore/extra`],
      ['GET', ''],
    ]) {
      const res = await fetch(`${base}${path}`, { method, headers: auth });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect((await res.json()) as Refusal).toMatchObject({ success: false, error: { code: 'ROUTE_NOT_FOUND', status: 404 } });
    }
    const post = await fetch(`${base}/openapi.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(((await post.json()) as Refusal).error.code).toBe('METHOD_NOT_ALLOWED');
    // Without a token the bearer check answers first, as for every route.
    expect((await fetch(`${base}/nope`)).status).toBe(401);
  });

  it('serves its OpenAPI description without a token', async () => {
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    // Every route is a declared operation, the app's own and the connected-apps routes too, answers described.
    const restore = doc.paths['/bits/{bit_id}/restore'].post;
    expect(restore.operationId).toBe('restoreBit');
    expect(Object.keys(restore.responses)).toEqual(['200', '401', '403', '404', '409', '422', '500']);
    const answer = (restore.responses['200'] as { content: Record<string, { schema: { properties: { data: { required: string[] } } } }> }).content['application/json'].schema.properties.data;
    expect(answer.required).toEqual(['bit_id', 'status', 'last_modified_date_time_utc', 'was_already_active']);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(ids).toEqual(expect.arrayContaining(['me', 'signOut', 'listGrants', 'revokeGrant', 'listOwnTokens', 'revokeOwnToken', 'inbox', 'getStep', 'getTrailPeople']));
    const grants = doc.paths['/oauth/grants/{grant_id}'].delete as unknown as { security: unknown };
    expect(grants.security).toEqual([{ session: [] }]);
    // The live-update stream is no operation, and is described beside them (http/live/live-route.ts).
    expect(doc.paths['/live'].get.operationId).toBe('live');
    expect(Object.keys(doc.paths['/live'].get.responses)).toEqual(['200', '401', '403', '429']);
    expect(ids).toEqual(expect.arrayContaining(['listNotifications', 'markNotificationsRead', 'getNotificationSettings', 'setNotificationSettings']));
  });
});
