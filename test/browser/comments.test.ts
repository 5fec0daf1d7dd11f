/**
 * Talking on a step (issue 27), in a real Chromium against a real `waymark serve`: a person comments on the step
 * page, mentioning a colleague by name; the comment shows as the text written (markup in it stays text, no script
 * runs), the colleague is told, and the trail page lists it under its step. axe-core runs on both pages. Skipped,
 * with a message, when Chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('comments');

const TEXT = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> <b>not bold</b>\n@Bob Stone, which laptop?';

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`comments in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let trailId: string;
    let bob: string;
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: run.webRoot });
      const auth = server.services.auth;
      const ann = await auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Ann Lee' });
      bob = (await auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Bob Stone' })).principalId;
      const done = String((await ok(server, 'add_bit', { bit_title: 'Hand over the laptop', bit_body: 'Hand it over.\n' })).bit_id);
      const start = String((await ok(server, 'add_bit', { bit_title: 'Order the laptop', bit_body: `Order it.\n\n[Ordered](bit-connection:${done})\n` })).bit_id);
      const flowId = String((await ok(server, 'create_flow', { flow_title: 'Onboarding', start_bit_id: start })).flow_id);
      trailId = String((await ok(server, 'start_trail', { flow_id: flowId, trail_title: 'Onboard Eve' })).trail_id);

      page = await (await run.browser().newContext({ viewport: { width: 1000, height: 900 } })).newPage();
      const link = await server.services.signin.createLink({ principalId: ann.principalId, capabilities: allCapabilityNames() });
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('a person comments on the step page: the text shows as written, the person mentioned is named and told', async () => {
      await page.goto(app(`#/trails/${trailId}/step`));
      await page.getByRole('heading', { name: 'Comments (0)' }).waitFor();
      await expectAccessible(page, 'the step page with no comments');
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toBe('Write the comment first.');

      await page.getByLabel('Add a comment').fill(TEXT);
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await expect.poll(() => page.getByRole('status').last().textContent()).toBe('Comment added; told Bob Stone.');
      await page.getByRole('heading', { name: 'Comments (1)' }).waitFor();
      const shown = page.locator('.comment-text');
      expect(await shown.allTextContents()).toEqual([TEXT]);
      // Markup in a comment is text: no element of it is made, and nothing in it ran.
      expect(await shown.locator('script, img, b').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
      await expect.poll(() => page.locator('.comments li').first().textContent()).toContain('Mentioned: Bob Stone');
      expect(await page.getByLabel('Add a comment').inputValue()).toBe('');
      await expectAccessible(page, 'the step page with a comment');

      const told = await server.services.store.db.selectFrom('notifications').select(['principal_id', 'kind']).where('trail_id', '=', trailId).execute();
      expect(told).toEqual([{ principal_id: bob, kind: 'mentioned' }]);
    });

    test('the trail page lists the comments under their step, as text', async () => {
      await page.goto(app(`#/trails/${trailId}`));
      const comments = page.getByRole('region', { name: 'Comments (1)' });
      await comments.getByRole('heading', { level: 3, name: '1. Order the laptop' }).waitFor();
      expect(await comments.locator('.comment-text').allTextContents()).toEqual([TEXT]);
      expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
      await expectAccessible(page, 'the trail page with a comment');
    });
  });
}
