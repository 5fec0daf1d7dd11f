/**
 * The Trails page (issue 28) in a real Chromium against a real `waymark serve`: every trail the person may see,
 * finished ones too; the text search and the filters kept in the address (Back goes to the previous filters, a
 * link opens the same list); the CSV download; a flow's report; a trail's title leading to its page; at 390 px wide
 * without sideways scrolling. axe-core runs on the page at both widths. Skipped, with a message, when Chromium is
 * missing.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { capabilityName } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('trails-page');

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`the Trails page (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let hiring: string;
    const trails: Record<string, string> = {};
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;
    const titles = () => page.locator('.trails-table tbody th[scope="row"]').allTextContents();
    const hash = () => page.evaluate('location.hash') as Promise<string>;

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: run.webRoot });
      const person = await server.services.auth.createToken({ accountId: server.accountId, permission: 'view', capabilities: [capabilityName('read'), capabilityName('run')], kind: 'person', name: 'Pat Person' });
      const intake = id(await ok(server, 'add_bit', { bit_title: 'Intake', bit_body: 'Take it in.\n' }), 'bit_id');
      const review = id(await ok(server, 'add_bit', { bit_title: 'Review', bit_body: 'Look at it.\n' }), 'bit_id');
      await ok(server, 'connect_bits', { source_bit_id: intake, target_bit_id: review });
      hiring = id(await ok(server, 'create_flow', { flow_title: 'Hiring', start_bit_id: intake }), 'flow_id');
      const orders = id(await ok(server, 'create_flow', { flow_title: 'Orders', start_bit_id: review }), 'flow_id');
      const start = async (flow: string, title: string, context: Record<string, unknown>) => id(await ok(server, 'start_trail', { flow_id: flow, trail_title: title, trail_context: context }), 'trail_id');
      trails.ann = await start(hiring, 'Ann', { candidate: 'Zoë Ng' });
      await ok(server, 'advance_trail', { trail_id: trails.ann });
      await ok(server, 'advance_trail', { trail_id: trails.ann });
      trails.bo = await start(hiring, 'Bo', { candidate: 'Bo' });
      trails.cy = await start(hiring, 'Cy', { candidate: 'Cy' });
      await ok(server, 'cancel_trail', { trail_id: trails.cy });
      trails.po = await start(orders, 'PO-77', { order: 'PO-77' });

      const context = await run.browser().newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
      page = await context.newPage();
      const link = await server.services.signin.createLink({ principalId: person.principalId });
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('lists every trail, finished ones too, and the navigation leads there', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Trails' }).click();
      await page.getByRole('heading', { level: 1, name: 'Trails' }).waitFor();
      await expect.poll(titles).toEqual(['PO-77', 'Cy', 'Bo', 'Ann']);
      const row = page.locator('.trails-table tbody tr').nth(1);
      expect(await row.locator('td').allTextContents()).toEqual(['Hiring', 'Cancelled', '—', 'owner', expect.any(String), expect.any(String)]);
      expect(await page.getByRole('main').getByRole('status').textContent()).toBe('Showing 4 trails.');
      await expectAccessible(page, 'the Trails page');
    });

    test('searches the context, filters by status, keeps both in the address, and Back restores the last filters', async () => {
      await page.getByLabel('Title or context contains').fill('zoë');
      await page.keyboard.press('Enter');
      await expect.poll(titles).toEqual(['Ann']);
      expect(await hash()).toBe('#/trails?q=zo%C3%AB');
      await page.getByLabel('Title or context contains').fill('');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect.poll(titles).toEqual(['PO-77', 'Cy', 'Bo', 'Ann']);
      await page.getByRole('checkbox', { name: 'Cancelled' }).check();
      await expect.poll(titles).toEqual(['Cy']);
      await page.getByRole('checkbox', { name: 'Completed' }).check();
      await expect.poll(titles).toEqual(['Cy', 'Ann']);
      expect(await hash()).toBe('#/trails?status=completed%2Ccancelled');
      await page.goBack();
      await expect.poll(titles).toEqual(['Cy']);
      expect(await page.getByRole('checkbox', { name: 'Completed' }).isChecked()).toBe(false);
      // The address alone opens the same list: a link shared.
      await page.goto(app('#/trails?q=po-77'));
      await expect.poll(titles).toEqual(['PO-77']);
      expect(await page.getByLabel('Title or context contains').inputValue()).toBe('po-77');
      await page.goto(app('#/trails?status=running&q=nobody'));
      await expect.poll(() => page.getByRole('main').getByRole('status').textContent()).toBe('No trail matches these filters.');
      await page.getByRole('link', { name: 'Clear the filters' }).click();
      await expect.poll(titles).toEqual(['PO-77', 'Cy', 'Bo', 'Ann']);
    });

    test("shows a flow's report, downloads its trails as CSV, and a title opens the trail", async () => {
      await page.getByLabel('Flow').selectOption({ label: 'Hiring' });
      await expect.poll(titles).toEqual(['Cy', 'Bo', 'Ann']);
      const report = page.getByRole('region', { name: 'Report: Hiring' });
      await report.waitFor();
      const byStatus = report.getByRole('table', { name: 'Trails by status' });
      expect(await byStatus.locator('tbody tr').allInnerTexts()).toEqual(['Running\t1', 'Waiting for a person\t0', 'Completed\t1', 'Cancelled\t1', 'All\t3']);
      const times = report.getByRole('table', { name: 'Time spent in each step' });
      expect(await times.locator('tbody th').allTextContents()).toEqual(['Intake', 'Review']);
      expect(await times.locator('tbody tr').first().locator('td').first().textContent()).toBe('2');
      await expectAccessible(page, 'the Trails page with a flow report');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
      expect(download.suggestedFilename()).toBe('trails.csv');
      const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
      expect(csv[0]).toBe('Trail,Title,Flow,Status,Current step,Started by,Started (UTC),Last change (UTC)');
      expect(csv.slice(1, -1).map((line) => line.split(',').slice(1, 4).join(','))).toEqual(['Cy,Hiring,Cancelled', 'Bo,Hiring,Running', 'Ann,Hiring,Completed']);

      await page.getByRole('link', { name: 'Bo', exact: true }).click();
      await expect.poll(hash).toBe(`#/trails/${trails.bo}`);
      await page.goBack();
      await expect.poll(titles).toEqual(['Cy', 'Bo', 'Ann']);
    });

    test('fits a phone: 390 px wide, each trail a block of labelled lines, nothing scrolls sideways', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(app(`#/trails?flow=${hiring}`));
      await expect.poll(titles).toEqual(['Cy', 'Bo', 'Ann']);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(await page.evaluate("getComputedStyle(document.querySelector('.trails-table td'), '::before').content")).toBe('"Flow: "');
      await expectAccessible(page, 'the Trails page at 390 px');
      await page.setViewportSize({ width: 1000, height: 900 });
    });
  });
}
