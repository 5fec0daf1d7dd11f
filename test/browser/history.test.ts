/**
 * See and undo what anyone changed (issue 26), in a real Chromium against a real `waymark serve`: a bit edited twice
 * through MCP shows its revisions on its page, the diff between two marks the removed line removed and the added
 * one added (for a screen reader too), and an old revision comes back through a confirmation dialog, or is refused
 * in words when the bit is archived; a flow whose bit changed since its approval shows what changed, and an Admin
 * asks for changes, then approves; the Activity page says each change in words and filters them, and is an
 * Admin's only. axe-core runs on every page. Skipped, with a message, when Chromium is missing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';


const run = useBrowser('history');
const WEB_ROOT = run.webRoot;

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`history in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let bitId: string;
    let flowId: string;
    let editor: { principalId: string; token: string };
    const cspErrors: string[] = [];
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;
    /** A one-time sign-in link with every capability (a session gets read and run only by default). */
    const link = async (principalId: string) => {
      const issued = await server.services.signin.createLink({ principalId, capabilities: allCapabilityNames() });
      return new URL(`/app/signin?token=${encodeURIComponent(issued.token)}`, server.base).href;
    };

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT });
      const auth = server.services.auth;
      const admin = await auth.createToken({ accountId: server.accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Ada Admin' });
      editor = await auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Robin Editor' });

      // Older changes, so that the Activity page has more than one page of them.
      for (let i = 1; i <= 10; i++) await ok(server, 'add_bit', { bit_title: `Note ${i}`, bit_body: `Note ${i}.\n` });
      // A flow approved, then one of its bits edited.
      const close = id(await ok(server, 'add_bit', { bit_title: 'Close the ticket', bit_body: 'Close it.\n' }), 'bit_id');
      const open = id(await ok(server, 'add_bit', { bit_title: 'Open the ticket', bit_body: `Write what happened.\n\n[Done](bit-connection:${close})\n` }), 'bit_id');
      flowId = id(await ok(server, 'create_flow', { flow_title: 'Incident', start_bit_id: open }), 'flow_id');
      await ok(server, 'review_flow', { flow_id: flowId, review_status: 'approved' });
      await ok(server, 'update_flow', { flow_id: flowId, is_active: true });
      const openBody = String((await ok(server, 'get_bit', { bit_id: open })).bit_body);
      await ok(server, 'update_bit', { bit_id: open, content_format: 'markdown', bit_body: openBody.replace('Write what happened.', 'Write what happened, and when.') });

      // A bit edited twice: its body by the owner's agent token, its title by Robin.
      bitId = id(await ok(server, 'add_bit', { bit_title: 'Deploy check', bit_body: 'Check the logs.\n\nRestart the service.\n' }), 'bit_id');
      const body = String((await ok(server, 'get_bit', { bit_id: bitId })).bit_body);
      expect(body).toContain('Restart the service.');
      await ok(server, 'update_bit', { bit_id: bitId, content_format: 'markdown', bit_body: body.replace('Restart the service.', 'Restart the service twice.') });
      await ok(server, 'update_bit', { bit_id: bitId, bit_title: 'Deploy checks' }, editor.token);

      const context = await run.browser().newContext({ viewport: { width: 1000, height: 900 } });
      page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) cspErrors.push(m.text());
      });
      await page.goto(await link(admin.principalId));
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('a bit page lists its revisions, and the diff between two marks what was removed and added', async () => {
      await page.goto(app(`#/bits/${bitId}`));
      await page.getByRole('heading', { level: 1, name: 'Deploy checks', exact: true }).waitFor();
      const revisions = page.getByRole('list', { name: 'Revisions of this bit, newest first' });
      await revisions.waitFor();
      const rows = () => revisions.locator('.revision-what').allTextContents();
      expect((await rows()).map((t) => t.replace(/ · .*$/, ''))).toEqual([
        'Revision 3 (the latest): Robin Editor edited this bit',
        'Revision 2: owner edited this bit',
        'Revision 1: owner created this bit',
      ]);

      await page.getByLabel('From revision').selectOption('1');
      await page.getByLabel('To revision').selectOption('2');
      await page.getByRole('button', { name: 'Show the changes' }).click();
      const diff = page.locator('.diff-result');
      await diff.getByRole('heading', { name: 'Changes from revision 1 to revision 2' }).waitFor();
      await diff.locator('.diff-lines').waitFor();
      // What a person sees, and what a screen reader reads: the line taken out struck through and said "Removed",
      // the new one underlined and said "Added"; the unchanged line neither.
      expect(await diff.locator('.line.removed').allTextContents()).toEqual(['−Removed: Restart the service.']);
      expect(await diff.locator('.line.added').allTextContents()).toEqual(['+Added: Restart the service twice.']);
      expect(await diff.getByRole('deletion').allTextContents()).toEqual(['Removed: Restart the service.']);
      expect(await diff.getByRole('insertion').allTextContents()).toEqual(['Added: Restart the service twice.']);
      expect(await diff.locator('.line.same').allTextContents()).toContain(' Check the logs.');
      expect(await page.evaluate("getComputedStyle(document.querySelector('.diff-lines del')).textDecorationLine")).toBe('line-through');
      expect(await diff.locator('p.muted').first().textContent()).toBe('1 line added, 1 removed.');
      await expectAccessible(page, 'bit history with a diff');
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1000, height: 900 });

      // One revision's own change: the title, before and after.
      await page.getByRole('button', { name: 'What changed in revision 3' }).click();
      await diff.getByRole('heading', { name: 'Changes from revision 2 to revision 3' }).waitFor();
      await diff.locator('table.diff-fields').waitFor();
      expect(await diff.locator('table.diff-fields tbody th').allTextContents()).toEqual(['Title']);
      expect(await diff.locator('table.diff-fields del').textContent()).toBe('Removed: Deploy check');
      expect(await diff.locator('table.diff-fields ins').textContent()).toBe('Added: Deploy checks');
    });

    test('an old revision is restored after a confirmation, and a refusal is said in words', async () => {
      const restore1 = page.getByRole('button', { name: 'Restore revision 1' });
      await restore1.click();
      const dialog = page.getByRole('dialog', { name: 'Restore revision 1?' });
      await dialog.waitFor();
      // Nothing happens before the answer; the focus starts on the choice that changes nothing.
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
      await expectAccessible(page, 'restore confirmation');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Restore revision 1');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Deploy checks');

      await restore1.click();
      await dialog.getByRole('button', { name: 'Restore revision 1' }).click();
      await expect.poll(() => page.locator('.restore-result').textContent()).toBe('Restored revision 1: the bit is now revision 4. Left as they are: its reference links and whether it is archived.');
      await page.getByRole('heading', { level: 1, name: 'Deploy check', exact: true }).waitFor();
      expect(await page.locator('.bit-body').textContent()).toContain('Restart the service.');
      expect(await page.locator('.bit-body').textContent()).not.toContain('twice');
      await expect.poll(async () => (await page.locator('.revision-what').first().textContent())?.replace(/ · .*$/, '')).toBe('Revision 4 (the latest): You restored an old revision of this bit');

      // An archived bit cannot change: restore_revision refuses as update_bit does (BIT_ARCHIVED), in words.
      await ok(server, 'archive_bit', { bit_id: bitId });
      await page.getByRole('button', { name: 'Restore revision 2' }).click();
      await page.getByRole('dialog', { name: 'Restore revision 2?' }).getByRole('button', { name: 'Restore revision 2' }).click();
      const alert = page.locator('[role=alert].restore-result');
      await alert.waitFor();
      expect(await alert.textContent()).toBe('Revision 2 was not restored. This bit is archived, so nothing in it can change. Take the bit out of the archive first, then restore the revision.');
      expect(await page.locator('.revision').count()).toBe(4);
      await expectAccessible(page, 'bit history after a refused restore');
    });

    test('a flow changed since its approval shows what changed; asking for changes keeps it, approving clears it', async () => {
      await page.goto(app(`#/flows/${flowId}`));
      const section = page.getByRole('region', { name: 'Changed since approval' });
      await section.waitFor();
      await section.locator('.flow-bit').first().waitFor();
      expect(await section.locator('.flow-bit h4').allTextContents()).toEqual(['Changed Open the ticket (revision 1 to 2)']);
      expect(await section.getByRole('deletion').allTextContents()).toEqual(['Removed: Write what happened.']);
      expect(await section.getByRole('insertion').allTextContents()).toEqual(['Added: Write what happened, and when.']);
      expect(await section.locator('p').first().textContent()).toMatch(/^Version 1 was approved by owner on .+\. Since then:$/);
      await expectAccessible(page, 'flow changed since approval');

      await section.getByRole('button', { name: 'Request changes' }).click();
      await expect.poll(() => page.locator('.review-result').textContent()).toBe('Changes requested: the flow\'s review status is now “Changes requested”.');
      await expect.poll(() => page.locator('h1 + p .badge').allTextContents()).toContain('Changes requested');
      expect(await section.count()).toBe(1);

      await section.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => page.locator('.review-result').textContent()).toBe('Approved: the flow as it is now is its approved version.');
      await expect.poll(() => section.count()).toBe(0);
      expect(await page.locator('.approval').textContent()).toMatch(/^Version 2 approved by you on .+; nothing changed since\.$/);
      expect(await page.locator('h1 + p .badge').allTextContents()).toContain('Approved');
      await page.getByRole('list', { name: 'Revisions of this flow, newest first' }).waitFor();
      await expect.poll(async () => (await page.locator('.revision-what').first().textContent())?.replace(/ · .*$/, '')).toBe('Revision 5 (the latest): You approved this flow');
      await expectAccessible(page, 'flow after approval');
    });

    test('the Activity page says each change in words, pages and filters them', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click();
      await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
      const items = () => page.locator('.activity-item .activity-what').allTextContents();
      await page.locator('.activity-item').first().waitFor();
      const first = await items();
      expect(first.slice(0, 2)).toEqual(['You approved the flow Incident', 'You asked for changes to the flow Incident']);
      expect(first).toContain('owner archived the bit Deploy check');
      expect(first).toContain('You restored an old revision of the bit Deploy check');
      expect(first).toContain('Robin Editor edited the bit Deploy check');
      expect(first).toContain('You signed in to the app');
      expect(first.length).toBe(25);
      expect(await page.getByRole('link', { name: 'Incident' }).first().getAttribute('href')).toBe(`#/flows/${flowId}`);
      await expectAccessible(page, 'activity');

      await page.getByRole('button', { name: 'Show older changes' }).click();
      await expect.poll(async () => (await items()).length).toBeGreaterThan(25);
      expect(await items()).toContain('owner created the bit Note 1');

      await page.getByLabel('Who', { exact: true }).selectOption({ label: 'Robin Editor' });
      await expect.poll(items).toEqual(['Robin Editor edited the bit Deploy check']);
      expect(new URL(page.url()).hash).toBe(`#/activity?who=${editor.principalId}`);

      await page.getByRole('link', { name: 'Show every change' }).click();
      await page.getByLabel('What changed').selectOption({ label: 'Bits' });
      await page.getByLabel('Change', { exact: true }).selectOption({ label: 'Bit created' });
      await expect.poll(items).toEqual([
        'owner created the bit Deploy check',
        'owner created the bit Open the ticket',
        'owner created the bit Close the ticket',
        ...Array.from({ length: 10 }, (_, i) => `owner created the bit Note ${10 - i}`),
      ]);
      await page.getByLabel('To', { exact: true }).fill('2001-01-01');
      await expect.poll(() => page.locator('.counts').textContent()).toBe('No change matches these filters.');
      await expectAccessible(page, 'activity, filtered');
      expect(cspErrors).toEqual([]);
    });

    test('a person who is not an Admin has no Activity in the navigation, and the page says why', async () => {
      const context = await run.browser().newContext();
      const other = await context.newPage();
      await other.goto(await link(editor.principalId));
      await other.getByRole('heading', { name: 'Inbox' }).waitFor();
      const nav = other.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Inbox', 'Trails', 'Flows', 'References']);
      await other.goto(app('#/activity'));
      await other.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
      expect(await other.locator('main .notice').textContent()).toBe("The account's activity is for Admins. A bit's or a flow's own changes are in the History on its page; ask an Admin of your account for anything else.");
      // Not Admin, so no Approve; edit permission, so Restore.
      await other.goto(app(`#/flows/${flowId}`));
      await other.getByRole('list', { name: 'Revisions of this flow, newest first' }).waitFor();
      expect(await other.getByRole('button', { name: 'Restore revision 1' }).count()).toBe(1);
      await context.close();
    });
  });
}
