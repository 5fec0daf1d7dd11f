/**
 * A route that answers a file (RestRoute.file, the Trails page's CSV): the text as an attachment of its media type,
 * the rest named by a Link header (rel "next") on the same request with its cursor; a refusal stays the envelope;
 * OpenAPI describes the answer as that media type. An operation of the test's own registry stands for a file whose
 * first part is all a request gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';
import { WaymarkError } from '../../errors.js';
import { defineOperation } from '../../operations/operation.js';
import { createRegistry } from '../../operations/registry.js';
import { fileAnswerShape } from '../../services/trails/trail-search-shapes.js';
import { openApiDocument } from './openapi.js';

const parts = ['a,b\r\n1,2\r\n', 'a,b\r\n3,4\r\n'];
const partsOperation = defineOperation({
  name: 'test_parts',
  title: 'Parts',
  description: 'A file in two parts.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/test/parts', operationId: 'testParts', file: { mediaType: 'text/csv', name: 'parts.csv' } },
  mcp: false,
  input: z.strictObject({ cursor: z.string().optional(), label: z.string().optional() }),
  output: fileAnswerShape,
  run: async (_ctx, input) => {
    if (input.cursor === 'refuse') throw new WaymarkError('FLOW_NOT_FOUND', 'No such flow.', {});
    return input.cursor === '1' ? { text: parts[1], next_cursor: null } : { text: parts[0], next_cursor: '1' };
  },
});

describe('a REST route that answers a file', () => {
  let h: Harness;
  let web: WebServer;
  const registry = createRegistry([partsOperation]);
  beforeAll(async () => {
    h = await startHarness('sqlite');
    web = await startWebServer(h.services, { registry });
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });
  const get = (path: string) => fetch(`${web.origin}/api/v1${path}`, { headers: { authorization: `Bearer ${h.owner.token}` } });

  it('sends the text as an attachment, and the rest by the Link header until there is none', async () => {
    const first = await get('/test/parts?label=x%20y');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(first.headers.get('content-disposition')).toBe('attachment; filename=parts.csv');
    expect(first.headers.get('link')).toBe('</api/v1/test/parts?label=x+y&cursor=1>; rel="next"');
    expect(await first.text()).toBe(parts[0]);
    const next = await get('/test/parts?label=x+y&cursor=1');
    expect(next.headers.get('link')).toBeNull();
    expect(await next.text()).toBe(parts[1]);
    const refused = await get('/test/parts?cursor=refuse');
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'FLOW_NOT_FOUND' } });
  });

  it('is described in OpenAPI as its media type', () => {
    const paths = openApiDocument(registry).paths as Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    expect(paths['/test/parts'].get.responses['200'].content).toEqual({ 'text/csv': { schema: { type: 'string' } } });
  });
});
