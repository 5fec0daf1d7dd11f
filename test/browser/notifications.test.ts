/**
 * Notifications and live updates in the web app (issue 27), in a real Chromium against a real `waymark serve`
 * (live updates polled every 100 ms). A person's header shows their unread count; something they are told of (a
 * notice recorded by notify(), as a causing write records it, on the store the server serves) raises it without a
 * reload, and the change is announced in a status region; the inbox shows a trail started elsewhere without a
 * reload; the Notifications page lists, links and marks read (the bell follows); the Settings page chooses which
 * kinds come by email. axe-core runs on each page. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { notify } from '../../src/services/notifications/record.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('notifications');

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`notifications and live updates in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let person: { principalId: string };
    let flowId = '';
    let trail: { trail_id: string; current_step: { step_id: string } };
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;
    const bell = () => page.locator('header .bell');
    const tell = (summary: Record<string, string>, kind: 'assigned' | 'mentioned' = 'assigned') =>
      server.services.store.transaction((tx) =>
        notify(tx, server.accountId, { principalIds: [person.principalId] }, { kind, trailId: trail.trail_id, stepId: trail.current_step.step_id, actorId: null, summary }),
      );

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: run.webRoot, WAYMARK_LIVE_POLL_MS: '100' });
      person = await server.services.auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Ann Lee' });
      const bit = (await ok(server, 'add_bit', { bit_title: 'Sign the contract', bit_body: 'Sign it.' })) as { bit_id: string };
      flowId = ((await ok(server, 'create_flow', { flow_title: 'Onboarding', start_bit_id: bit.bit_id })) as { flow_id: string }).flow_id;
      trail = (await ok(server, 'start_trail', { flow_id: flowId, trail_title: 'Onboarding Ann' })) as typeof trail;
      const context = await run.browser().newContext({ viewport: { width: 1000, height: 900 } });
      page = await context.newPage();
      const link = await server.services.signin.createLink({ principalId: person.principalId });
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('the bell counts what I am told of, and the inbox shows a new trail, without a reload', async () => {
      await expect.poll(() => bell().getAttribute('data-unread')).toBe('0');
      expect(await bell().textContent()).toBe('Notifications');
      await expectAccessible(page, 'inbox with the bell');
      // Marked so that a reload (which would drop it) cannot pass for a live update.
      await page.evaluate(() => ((globalThis as unknown as { stayed: boolean }).stayed = true));
      const inboxItems = () => page.getByRole('list', { name: 'Steps waiting for you' }).getByRole('listitem').count();
      const before = await inboxItems().catch(() => 0);

      await tell({ step_title: 'Sign the contract', trail_title: 'Onboarding Ann' });
      await tell({ step_title: 'Sign the contract', trail_title: 'Onboarding Ann', excerpt: 'Can you check clause 4?' }, 'mentioned');
      await expect.poll(() => bell().getAttribute('data-unread')).toBe('2');
      expect(await bell().textContent()).toBe('Notifications2, 2 unread notifications');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'unread notification' }).textContent()).toBe('2 unread notifications');

      // A trail started elsewhere (an agent over MCP) that is handed to a person: the inbox shows it in place.
      const other = (await ok(server, 'start_trail', { flow_id: flowId, trail_title: 'Onboarding Bob' })) as { trail_id: string };
      await ok(server, 'transfer_step', { trail_id: other.trail_id, reason: 'A person signs' });
      await expect.poll(() => inboxItems()).toBe(before + 1);
      expect(await page.evaluate(() => (globalThis as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await expectAccessible(page, 'inbox after live updates');
    });

    test('the Notifications page lists them in words, links to the step and marks them read; the bell follows', async () => {
      await bell().click();
      await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
      const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
      await expect.poll(() => items.count()).toBe(2);
      expect(await items.nth(0).getByRole('link').textContent()).toBe('Someone mentioned you on Sign the contract in Onboarding Ann: “Can you check clause 4?”');
      expect(await items.nth(1).getByRole('link').getAttribute('href')).toBe(`#/trails/${trail.trail_id}/step`);
      await expectAccessible(page, 'notifications, two unread');

      await items.nth(0).getByRole('button', { name: /^Mark read/ }).click();
      await expect.poll(() => bell().getAttribute('data-unread')).toBe('1');
      await expect.poll(() => page.locator('.status').textContent()).toBe('Marked 1 read. 1 unread notification.');

      // One more arrives while the page is open: the list grows by itself.
      await tell({ step_title: 'Welcome lunch', trail_title: 'Onboarding Ann' });
      await expect.poll(() => items.count()).toBe(3);
      await page.getByRole('button', { name: 'Mark all read' }).click();
      await expect.poll(() => bell().getAttribute('data-unread')).toBe('0');
      expect(await page.getByRole('button', { name: 'Mark all read' }).isDisabled()).toBe(true);
      await page.getByRole('checkbox', { name: 'Only unread' }).check();
      await expect.poll(() => page.locator('.empty').textContent()).toBe('Nothing unread.');
      await expectAccessible(page, 'notifications, all read');

      // Following a notification opens its step.
      await page.getByRole('checkbox', { name: 'Only unread' }).uncheck();
      await items.nth(2).getByRole('link').click();
      await page.waitForURL(app(`#/trails/${trail.trail_id}/step`));
    });

    test('Settings: which kinds come by email, with my address or that none is set', async () => {
      await page.goto(app('#/settings'));
      await page.getByRole('heading', { level: 2, name: 'Notifications by email' }).waitFor();
      await expect.poll(() => page.locator('.notice').textContent()).toMatch(/^No email address is set for you/);
      const group = page.getByRole('group', { name: 'Email me when' });
      expect(await group.getByRole('checkbox', { checked: true }).count()).toBe(4);
      await expectAccessible(page, 'settings');
      await group.getByRole('checkbox', { name: 'Someone mentions me in a comment' }).uncheck();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1);
      const saved = await server.services.store.db.selectFrom('notification_settings').select('email_kinds').where('principal_id', '=', person.principalId).executeTakeFirstOrThrow();
      expect(JSON.parse(saved.email_kinds)).toEqual(['assigned', 'step_overdue', 'trail_overdue']);

      // An Admin sets her address: the page says where mail goes.
      await server.services.store.db.updateTable('principals').set({ email: 'ann@example.com' }).where('id', '=', person.principalId).execute();
      await page.reload();
      await expect.poll(() => page.locator('form p').first().textContent()).toBe('Email goes to ann@example.com.');
    });
  });
}
