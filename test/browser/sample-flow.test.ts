/**
 * The sample flow (issue 28), in a real Chromium against a real `waymark serve` on a new account: an Admin on the empty
 * Flows page adds the sample with one click and lands on it approved and active, starts a trail on it and meets its
 * first step; axe-core runs on each state. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('sample');

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`the sample flow in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: run.webRoot });
      const admin = await server.services.auth.createToken({ accountId: server.accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Ada Admin' });
      const issued = await server.services.signin.createLink({ principalId: admin.principalId, capabilities: allCapabilityNames() });
      page = await (await run.browser().newContext({ viewport: { width: 1000, height: 900 } })).newPage();
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(issued.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('an Admin adds the sample with one click, lands on it approved and active, and starts a trail on it', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flows' }).click();
      await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
      expect(await page.locator('.empty').textContent()).toBe('No flows yet.');
      await expectAccessible(page, 'flows, none yet');
      await page.getByRole('button', { name: 'Add the sample flow' }).click();
      await page.getByRole('heading', { level: 1, name: 'Welcome a new colleague (sample)' }).waitFor({ timeout: 15_000 });
      await expectAccessible(page, 'the sample flow');
      // What the server holds: the four steps with every element type, approved and active.
      const flows = (await (await fetch(new URL('/api/v1/flows', server.base), { headers: { authorization: `Bearer ${server.token}` } })).json()) as {
        data: { flows: Array<{ flow_title: string; is_active: boolean; review_status: string }> };
      };
      expect(flows.data.flows.map((f) => [f.flow_title, f.is_active, f.review_status])).toEqual([['Welcome a new colleague (sample)', true, 'approved']]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Flows' }).click();
      expect(await page.getByRole('button', { name: 'Add the sample flow' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Start a trail of Welcome a new colleague (sample)' }).click();
      await page.getByLabel("New colleague's name").fill('Sam Sample');
      await page.getByRole('button', { name: /Start/ }).click();
      await page.getByRole('heading', { name: 'Plan the first day' }).waitFor({ timeout: 15_000 });
      expect(await page.getByRole('combobox', { name: /Team/ }).count()).toBe(1);
      await expectAccessible(page, "the sample's first step");
    });
  });
}
