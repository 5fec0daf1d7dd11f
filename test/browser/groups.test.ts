/**
 * Groups in the web app (issue 27), in a real Chromium against a real `waymark serve`: an Admin makes a group (a
 * second of the same name refused in words), adds a person chosen from the account's people, renames the group,
 * takes the person out, sets a person's email (a bad one refused in words) and removes the group after a
 * confirmation; a bit's page says who does its step and by when. A person who is not an Admin has no Groups in the
 * navigation. axe-core runs on each state. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import type { GroupList } from '../../src/services/groups/shapes.js';
import { ENGINES } from '../engines.js';
import { startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('groups');
const WEB_ROOT = run.webRoot;

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`groups in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let editor: { principalId: string };
    const link = async (principalId: string) => {
      const issued = await server.services.signin.createLink({ principalId, capabilities: allCapabilityNames() });
      return new URL(`/app/signin?token=${encodeURIComponent(issued.token)}`, server.base).href;
    };
    const rest = async <T>(path: string): Promise<T> => {
      const res = await fetch(new URL(`/api/v1${path}`, server.base), { headers: { authorization: `Bearer ${server.token}` } });
      return ((await res.json()) as { data: T }).data;
    };

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT });
      const auth = server.services.auth;
      const admin = await auth.createToken({ accountId: server.accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Ada Admin', email: 'ada@example.com' });
      editor = await auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Robin Editor' });
      const context = await run.browser().newContext({ viewport: { width: 1000, height: 900 } });
      page = await context.newPage();
      await page.goto(await link(admin.principalId));
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    }, 120_000);
    afterAll(async () => {
      await page?.context().close();
      await server?.close();
    });

    test('an Admin makes a group, fills it, renames it, empties it and removes it', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
      await page.getByRole('heading', { level: 1, name: 'Groups' }).waitFor();
      await expect.poll(() => page.locator('.counts').textContent(), { timeout: 10_000 }).toBe('No groups yet.');
      await expectAccessible(page, 'groups, none yet');

      await page.getByLabel('Name', { exact: true }).fill('Onboarding');
      await page.getByRole('button', { name: 'Make the group' }).click();
      await expect.poll(() => page.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Made the group Onboarding. Add its members below its name.');
      await page.getByLabel('Name', { exact: true }).fill('onboarding');
      await page.getByRole('button', { name: 'Make the group' }).click();
      await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 10_000 }).toContain('already has a group named "onboarding"');

      await page.getByRole('button', { name: 'Show the members of Onboarding' }).click();
      await page.getByText('Nobody is in this group yet.').waitFor();
      await page.getByLabel('Add a person to Onboarding').selectOption({ label: 'Robin Editor' });
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByRole('list', { name: 'Members of Onboarding' }).getByText('Robin Editor').waitFor();
      await expectAccessible(page, 'a group with a member');
      const [made] = (await rest<GroupList>('/groups')).groups;
      expect([made.name, made.member_count]).toEqual(['Onboarding', 1]);

      await page.getByLabel('New name for Onboarding').fill('New starters');
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('heading', { level: 2, name: 'New starters' }).waitFor();
      await page.getByRole('button', { name: 'Take Robin Editor out of New starters' }).click();
      await page.getByText('Nobody is in this group yet.').waitFor();

      await page.getByRole('button', { name: 'Remove New starters' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove the group New starters?' });
      await dialog.waitFor();
      await expectAccessible(page, 'removing a group');
      await dialog.getByRole('button', { name: 'Remove the group' }).click();
      await expect.poll(() => page.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Removed the group New starters.');
      expect((await rest<GroupList>('/groups')).groups).toEqual([]);
    });

    test('an Admin sets a person\'s email; a bad one is refused in words', async () => {
      const field = page.getByLabel('Email of Robin Editor');
      await field.fill('robin at example');
      // The browser's own check would stop a form of type email: the server's refusal is what is tested.
      await field.evaluate((input) => ((input as { type: string }).type = 'text'));
      await field.locator('xpath=ancestor::form').getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.locator('.field-error').textContent(), { timeout: 10_000 }).toContain('is not an email address');
      await field.fill('Robin@Example.com');
      await field.locator('xpath=ancestor::form').getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe('robin@example.com');
      const row = await server.services.store.db.selectFrom('principals').select('email').where('id', '=', editor.principalId).executeTakeFirst();
      expect(row?.email).toBe('robin@example.com');
      await expectAccessible(page, 'people\'s emails');
    });

    test('a bit\'s page says who does its step and by when', async () => {
      const actor = (await server.services.auth.authenticate(server.token))!;
      await server.services.groups.create(actor, { name: 'Reviewers' });
      const bit = await server.services.bits.add(actor, { bit_title: 'Review', bit_body: 'Check it.', assignee: 'group:Reviewers', expected_duration: 'P2D' });
      await page.goto(new URL(`/app/#/bits/${bit.bit_id}`, server.base).href);
      await page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
      expect(await page.locator('.assignee').textContent()).toBe('Done by: Reviewers (group)');
      expect(await page.locator('.due').textContent()).toBe('Due within 2 days');
      await expectAccessible(page, 'a bit with its assignee');
    });

    test('a person who is not an Admin has no Groups in the navigation', async () => {
      const context = await run.browser().newContext();
      const other = await context.newPage();
      await other.goto(await link(editor.principalId));
      await other.getByRole('heading', { name: 'Inbox' }).waitFor();
      expect(await other.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).count()).toBe(0);
      await context.close();
    });
  });
}
