/**
 * The web app's files at /app (issue 11): the build's files with long caching for hashed names, index.html for
 * client routes, a Content-Security-Policy without inline scripts; and /api/v1/openapi.json describing the app's
 * routes with schemas that the real answers satisfy.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness.js';
import { signedIn, startWebServer, type WebServer } from '../../test/web-client.js';
import type { RestRoute } from '../operations/operation.js';
import { REGISTRY } from '../operations/registry.js';

describe('the web app at /app', () => {
  let h: Harness;
  let web: WebServer;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'waymark-web-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/app/assets/main-4F2KQ7AZ.js"></script>');
    writeFileSync(join(root, 'assets', 'main-4F2KQ7AZ.js'), 'console.log(1)');
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    process.env.WAYMARK_WEB_ROOT = root;
    h = await startHarness('sqlite');
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    delete process.env.WAYMARK_WEB_ROOT;
    await web.close();
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves hashed assets for a year, other files revalidated, index.html for client routes, with a CSP forbidding inline script', async () => {
    const asset = await fetch(`${web.origin}/app/assets/main-4F2KQ7AZ.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${web.origin}/app/favicon.svg`);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    for (const path of ['/app', '/app/', '/app/inbox', '/app/trails/123/step']) {
      const res = await fetch(`${web.origin}${path}`);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('main-4F2KQ7AZ.js');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain('frame-src http: https:');
    }
    const missing = await fetch(`${web.origin}/app/assets/gone-AAAAAAAA.js`);
    expect(missing.status).toBe(404);
    // No session: the page loads, and the API it calls answers 401, so the app shows its sign-in page.
    expect((await fetch(`${web.origin}/api/v1/me`)).status).toBe(401);
  });

  it('describes every app route in /api/v1/openapi.json, and the real answers fit the described schemas', async () => {
    const doc = (await (await fetch(`${web.origin}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };
    for (const operation of REGISTRY.rest) {
      const route = operation.rest as RestRoute;
      const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method]?.operationId).toBe(route.operationId);
    }
    expect(doc.paths['/me'].get.operationId).toBe('me');
    const person = await h.principal({ kind: 'person', capabilities: ['read', 'run'] });
    const browser = await signedIn(h.services, web.origin, person.principalId);
    const start = await h.owner.client.ok<{ bit_id: string }>('add_bit', { bit_title: 'Only step', bit_body: '[text-area: Notes](waymark-node:n)', elements: [{ key: 'n', type: 'text-area', props: { required: true } }] });
    const { flow_id } = await h.owner.client.ok<{ flow_id: string }>('create_flow', { flow_title: 'One', start_bit_id: start.bit_id });
    const trail = await browser.ok(browser.post<{ trail_id: string }>('/trails', { flow_id }));
    const ajv = new Ajv2020({ strict: false });
    const check = async (path: string, template: string, method = 'get') => {
      const res = await browser.fetch(`/api/v1${path}`);
      const schema = doc.paths[template][method].responses['200'].content!['application/json'].schema;
      const validate = ajv.compile(schema);
      const body: unknown = await res.json();
      expect([path, validate(body), validate.errors ?? null]).toEqual([path, true, null]);
    };
    await check('/inbox', '/inbox');
    await check(`/trails/${trail.trail_id}/step`, '/trails/{trail_id}/step');
    await check(`/trails/${trail.trail_id}`, '/trails/{trail_id}');
    await check(`/flows/${flow_id}?format=mermaid`, '/flows/{flow_id}');
    await check('/me', '/me');
  });
});
