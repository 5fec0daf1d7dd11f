/**
 * A newcomer who adds an operation touches one declaration: a throwaway operation, declared once with an MCP door and
 * a REST route, is listed and called over MCP, served under /api/v1, described in OpenAPI, and held to its declared
 * access the same way at both doors, through the one pipeline (dispatch).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENGINES } from '../../test/engines.js';
import { connectClient, startHarness, type Harness } from '../../test/harness.js';
import { startWebServer, type WebServer } from '../../test/web-client.js';
import { defineOperation } from './operation.js';
import { createRegistry } from './registry.js';

const seen: string[] = [];
const echo = defineOperation({
  name: 'echo_note',
  title: 'Echo a note',
  description: 'Answers the note it was given, with the caller.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'post', path: '/notes/:note_id/echo', operationId: 'echoNote' },
  input: z.strictObject({ note_id: z.string().min(1), text: z.string().max(20) }),
  output: z.object({ note_id: z.string(), text: z.string(), principal_id: z.string() }),
  run: async ({ actor }, input) => {
    seen.push(input.text);
    return { ...input, principal_id: actor.principalId };
  },
});

describe.each(ENGINES)('an operation declared once, served by every door, on %s', (engine) => {
  let h: Harness;
  let web: WebServer;
  const registry = createRegistry([echo]);
  beforeAll(async () => {
    h = await startHarness(engine);
    web = await startWebServer(h.services, { registry });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  const rest = (token: string, body: unknown) =>
    fetch(`${web.origin}/api/v1/notes/n1/echo`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('is listed and answered over MCP, and answered the same at its REST route', async () => {
    const client = await connectClient(h.services, h.owner.token, { registry });
    const { tools } = await client.client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo_note');
    expect(await client.ok('echo_note', { note_id: 'n1', text: 'over mcp' })).toEqual({ note_id: 'n1', text: 'over mcp', principal_id: h.owner.principalId });
    await client.close();
    const res = await rest(h.owner.token, { text: 'over rest' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: { note_id: 'n1', text: 'over rest', principal_id: h.owner.principalId } });
    expect(seen).toEqual(expect.arrayContaining(['over mcp', 'over rest']));
  });

  it('is described in OpenAPI from its declaration', async () => {
    const doc = (await (await fetch(`${web.origin}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
    expect(doc.paths['/notes/{note_id}/echo'].post).toMatchObject({ operationId: 'echoNote', summary: 'Echo a note' });
  });

  it('refuses the same callers the same way at both doors, and runs nothing for them', async () => {
    const before = seen.length;
    const reader = await h.principal({ capabilities: ['read'] });
    const client = await connectClient(h.services, reader.token, { registry });
    const viaMcp = await client.fail('echo_note', { note_id: 'n1', text: 'no' });
    await client.close();
    const viaRest = (await (await rest(reader.token, { text: 'no' })).json()) as { error: { code: string; details: unknown } };
    expect(viaMcp.code).toBe('FORBIDDEN');
    expect(viaRest.error.code).toBe('FORBIDDEN');
    expect(viaRest.error.details).toEqual(viaMcp.details);
    const anonymous = await connectClient(h.services, undefined, { registry });
    expect((await anonymous.fail('echo_note', { note_id: 'n1', text: 'no' })).code).toBe('UNAUTHENTICATED');
    await anonymous.close();
    const invalid = (await (await rest(h.owner.token, { text: 'x'.repeat(21) })).json()) as { error: { code: string } };
    expect(invalid.error.code).toBe('VALIDATION_ERROR');
    expect(seen.length).toBe(before);
  });

  it('a Bearer token cannot call a session-only operation at all', async () => {
    const res = await fetch(`${web.origin}/api/v1/oauth/tokens`, { headers: { authorization: `Bearer ${h.owner.token}` } });
    const body = (await res.json()) as { error: { code: string; details: unknown } };
    expect(res.status).toBe(403);
    expect(body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_credential: 'session' } });
  });
});
