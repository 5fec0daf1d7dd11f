/**
 * An author's text and embeds stay inside what the person sees (issue 24, findings 7 and 10), in a real
 * Chromium against a real `waymark serve`: a bit title carrying a Mermaid `themeCSS` directive whose url()
 * points to a listener of the test, or SVG markup that would fetch from it, is drawn as text in the flow's picture
 * (the app lays it out and Preact draws it, issue 28) and the listener is never asked; an iframe element of the app's own origin is framed without
 * allow-same-origin. Skipped, with a message, when Chromium is missing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.js';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { signinLink } from './world.js';

const CHROMIUM = process.env.WAYMARK_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`test/browser: SKIPPED, no Chromium at ${CHROMIUM} (install Debian's chromium, or set WAYMARK_CHROMIUM)`);

let browser: Browser;
/** Every path the author's listener was asked for. */
const asked: string[] = [];
let listener: Server;
let listenerOrigin: string;
const WEB_ROOT = mkdtempSync(join(tmpdir(), 'waymark-author-content-'));
beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  listener = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('seen');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerOrigin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  await buildWeb({ quiet: true, outDir: WEB_ROOT });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  listener?.close();
  rmSync(WEB_ROOT, { recursive: true, force: true });
});

/** A directive that, applied, styles the picture with images fetched from the listener. */
const beacon = (path: string) =>
  `%%{init: {'themeCSS': '.node rect{mask-image:url(${listenerOrigin}${path}/m)} .node{background-image:url(${listenerOrigin}${path}/b)} text{fill:url(${listenerOrigin}${path}/f#p)}'}}%%`;

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`author content in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let flowId: string;
    let trailId: string;
    let title: string;
    let doneId: string;
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;

    /** The flow page loaded afresh, its picture drawn; a few quiet moments after it for any late fetch. */
    async function drawFlow(): Promise<string> {
      await page.goto('about:blank');
      await page.goto(app(`#/flows/${flowId}`));
      const svg = page.locator('[data-testid=flow-svg] svg');
      await svg.waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      return (await svg.textContent()) ?? '';
    }

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT });
      title = `Deploy ${beacon(`/beacon-${engine}`)} now`;
      const next = id(await ok(server, 'add_bit', { bit_title: 'Done', bit_body: 'Nothing left.\n' }), 'bit_id');
      doneId = next;
      const start = id(
        await ok(server, 'add_bit', {
          bit_title: title,
          bit_body: `Two pages.\n\n[iframe](waymark-node:own)\n\n[iframe](waymark-node:other)\n\n[Next](bit-connection:${next})\n`,
          elements: [
            { key: 'own', type: 'iframe', props: { url: new URL('/healthz', server.base).href, height: 100 } },
            { key: 'other', type: 'iframe', props: { url: `${listenerOrigin}/frame`, height: 100 } },
          ],
        }),
        'bit_id',
      );
      flowId = id(await ok(server, 'create_flow', { flow_title: 'Deploy', start_bit_id: start }), 'flow_id');
      await ok(server, 'review_flow', { flow_id: flowId, review_status: 'approved' });
      await ok(server, 'update_flow', { flow_id: flowId, is_active: true });
      const person = await server.services.auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Robin Person' });
      trailId = id(await ok(server, 'start_trail', { flow_id: flowId, trail_title: 'Deploy 1' }, person.token), 'trail_id');
      page = await (await browser.newContext({ viewport: { width: 1000, height: 900 } })).newPage();
      await page.goto(await signinLink(server, person.principalId));
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('a bit title carrying a themeCSS directive is drawn as text and fetches nothing', async () => {
      const shown = await drawFlow();
      expect(asked.filter((path) => path.startsWith('/beacon'))).toEqual([]);
      // The box shows the title's first three lines as text; its link carries the whole title.
      expect(shown.replace(/\s/g, '')).toContain('Deploy%%{init:');
      expect(await page.locator('[data-testid=flow-svg] svg').getByRole('link', { name: title, exact: true }).count()).toBe(1);
    });

    test('a title of SVG markup is drawn as text: no element of it is made, nothing is fetched; each box is a link to its bit', async () => {
      const markup = `<image href="${listenerOrigin}/markup-${engine}.png"/>`;
      await ok(server, 'update_bit', { bit_id: doneId, bit_title: markup });
      const shown = await drawFlow();
      expect(shown.replace(/\s/g, '')).toContain('<imagehref="http');
      expect(await page.locator('[data-testid=flow-svg] svg').getByRole('link', { name: markup, exact: true }).count()).toBe(1);
      expect(await page.locator('[data-testid=flow-svg] svg image').count()).toBe(0);
      expect(asked.filter((p) => p.startsWith('/markup'))).toEqual([]);
      const boxes = page.locator('[data-testid=flow-svg] svg a.flow-box');
      expect(await boxes.count()).toBe(2);
      expect(await boxes.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(expect.arrayContaining([`#/bits/${doneId}`]));
    });

    test('an iframe of the app’s own origin is framed without allow-same-origin; another origin keeps it', async () => {
      await page.goto(app(`#/trails/${trailId}/step`));
      const frames = page.locator('.iframe iframe');
      await frames.first().waitFor();
      expect(await frames.count()).toBe(2);
      expect(await frames.nth(0).getAttribute('src')).toBe(new URL('/healthz', server.base).href);
      expect(await frames.nth(0).getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-popups');
      expect(await frames.nth(1).getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
    });
  });
}
