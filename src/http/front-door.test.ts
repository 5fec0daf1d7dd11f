/** The server's root leads a person to the web app, and the icon a browser asks for is served, not a 404 (issue 28). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness.js';
import { startWebServer, type WebServer } from '../../test/web-client.js';

describe('the front door', () => {
  let h: Harness;
  let web: WebServer;
  beforeAll(async () => {
    h = await startHarness('sqlite');
    web = await startWebServer(h.services);
  });
  afterAll(async () => {
    await web.close();
    await h.close();
  });

  it('sends / to the web app', async () => {
    const res = await fetch(`${web.origin}/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app/');
  });

  it('serves the icon at /favicon.svg and /favicon.ico', async () => {
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const res = await fetch(`${web.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^image\/svg\+xml/);
      expect(await res.text(), path).toMatch(/^<svg /);
    }
  });
});
