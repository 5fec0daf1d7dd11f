/**
 * A conversion thread that fails to encode a large answer does not leave the request unanswered: over `/mcp` the
 * SDK writes the answer itself, under `/api/v1` Express does, and the failure is logged. The encoder is made to
 * fail here (a module stand-in for a worker out of memory); the HTTP app, store and SDK client are real.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startHarness, type Harness } from '../../../test/harness.js';
import { startWebServer, type WebServer } from '../../../test/web-client.js';

const failures = vi.hoisted(() => ({ count: 0 }));

vi.mock('../../services/convert/pool.js', async (original) => ({
  ...(await original<typeof import('../../services/convert/pool.js')>()),
  encodeLargeJson: () => {
    failures.count++;
    return Promise.reject(new Error('the conversion worker ran out of memory'));
  },
}));

describe('a large answer whose encoding fails', () => {
  let h: Harness;
  let web: WebServer;
  let bitId: string;
  beforeAll(async () => {
    h = await startHarness('sqlite');
    web = await startWebServer(h.services);
    bitId = (await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Large', bit_body: 'A paragraph.\n\n'.repeat(2000) })).bit_id;
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await h?.close();
  });

  it('is still answered whole over /mcp, written by the SDK', async () => {
    const before = failures.count;
    const client = new Client({ name: 'failure-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', web.origin), { requestInit: { headers: { authorization: `Bearer ${h.owner.token}` } } }));
    const result = await client.callTool({ name: 'get_bit', arguments: { bit_id: bitId } });
    await client.close();
    expect(failures.count).toBeGreaterThan(before);
    expect(result.structuredContent).toMatchObject({ success: true, data: { bit_id: bitId } });
  });

  it('is still answered whole under /api/v1, written by Express', async () => {
    const before = failures.count;
    const response = await fetch(new URL(`/api/v1/bits/${bitId}`, web.origin), { headers: { authorization: `Bearer ${h.owner.token}` } });
    expect(failures.count).toBeGreaterThan(before);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, data: { bit_id: bitId } });
  });
});
