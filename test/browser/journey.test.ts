/**
 * A new team's first hour, by keyboard alone at a phone's size (390×844), in a real Chromium against a real
 * `waymark serve` on a store it starts for the first time (issue 28: "a person never needs the README, a UUID or
 * the CLI"). The operator reads the start banner: the app's address and the owner's one-time sign-in link. The
 * owner opens the app (signed out, it says to ask an admin), signs in with the link, adds the sample flow with one
 * click, starts a trail from its context form, answers every step (a dropdown that picks the branch, a date, a
 * check-list, a text with the author's rule, a text-area) and finishes the trail; then invites a colleague on the
 * People page, and the colleague signs in with the link shown once. Every control is reached with Tab and used with
 * the keyboard; axe-core runs on each page. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ENGINES } from '../engines.js';
import { createTestStore, type TestStore } from '../engines.js';
import { startServe, stopServe, type Served } from '../serve.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('journey');
const PHONE = { width: 390, height: 844 };

/** Presses Tab until `target` has the focus: it must be reachable by keyboard, in at most `most` presses. */
async function tabTo(page: Page, target: Locator, most = 80): Promise<void> {
  await target.first().waitFor();
  const seen: string[] = [];
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await target.first().evaluate((el) => el === el.ownerDocument.activeElement)) return;
    seen.push(await page.evaluate(() => {
      const el = (globalThis as unknown as { document: { activeElement: { tagName: string; id: string; textContent: string | null } | null } }).document.activeElement;
      return el ? `${el.tagName}#${el.id} ${(el.textContent ?? '').slice(0, 30)}` : 'none';
    }));
  }
  throw new Error(`${String(target)} was not reached by ${most} presses of Tab; the focus went to: ${seen.join(' | ')}`);
}

/** Tab to `target` and press `key` on it (Enter follows a link or presses a button; Space ticks a box). */
async function press(page: Page, target: Locator, key = 'Enter'): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Tab to a text field and type into it. */
async function type(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`a first journey by keyboard at 390×844 (${engine})`, () => {
    let ts: TestStore;
    let served: Served;
    beforeAll(async () => {
      ts = await createTestStore(engine);
      served = await startServe({ ...ts.env, WAYMARK_WEB_ROOT: run.webRoot, WAYMARK_SMTP_URL: '', WAYMARK_PUBLIC_URL: '' });
    }, 60_000);
    afterAll(async () => {
      await stopServe(served);
      await ts?.close();
    });

    test('from the banner to a finished trail and an invited colleague', { timeout: 180_000 }, async () => {
      const banner = served.out().split('\n');
      const appAddress = /^The web app: (\S+) /.exec(banner.find((l) => l.startsWith('The web app: ')) ?? '')?.[1];
      const ownerLink = banner.find((l) => l.startsWith('Sign in to the web app as its owner'))?.split(': ').at(-1);
      expect(appAddress).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/$/);
      expect(ownerLink).toMatch(/\/app\/signin\?token=/);

      const context = await run.browser().newContext({ viewport: PHONE, locale: 'en-US', timezoneId: 'UTC' });
      const page = await context.newPage();
      await page.goto(appAddress as string);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('main').textContent()).toContain('ask your admin');
      await expectAccessible(page, 'journey: signed out');

      await page.goto(ownerLink as string);
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      await expectAccessible(page, 'journey: the empty inbox');
      const nav = page.getByRole('navigation', { name: 'Main' });

      // One click (here: one Enter) adds the sample flow.
      await press(page, nav.getByRole('link', { name: 'Flows' }));
      await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
      await expectAccessible(page, 'journey: no flows yet');
      await press(page, page.getByRole('button', { name: /sample flow/ }));
      await page.getByRole('heading', { level: 1, name: 'Welcome a new colleague (sample)' }).waitFor({ timeout: 15_000 });
      const start = page.getByRole('main').getByRole('link', { name: 'Start a trail', exact: true });
      await expectAccessible(page, 'journey: the sample flow added');

      // The context form: a field refused in words, then accepted.
      await press(page, start);
      await page.getByRole('heading', { level: 1, name: /^Start a trail/ }).waitFor();
      await type(page, page.getByLabel("New colleague's name"), 'Noor Haddad');
      await type(page, page.getByLabel('Their work email'), 'noor@');
      await press(page, page.getByRole('button', { name: 'Start the trail' }));
      await expect.poll(() => page.getByRole('main').textContent()).toContain('Their work email');
      await expectAccessible(page, 'journey: the start form with a refusal');
      await tabTo(page, page.getByLabel('Their work email'));
      await page.keyboard.press('End');
      await page.keyboard.type('example.com');
      await press(page, page.getByRole('button', { name: 'Start the trail' }));

      // Step 1: the team picks the branch; the page says where continuing leads before anything is saved.
      await page.getByRole('heading', { level: 1, name: 'Plan the first day' }).waitFor();
      await expectAccessible(page, 'journey: the first step');
      await tabTo(page, page.getByLabel('Team'));
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => page.getByLabel('Team').inputValue()).not.toBe('');
      // Engineering leads to the laptop, before anything is saved.
      expect(await page.getByRole('button', { name: 'Save and continue to Set up the laptop' }).count()).toBe(1);
      await type(page, page.getByLabel(/^First day/), '12012026');
      await press(page, page.getByRole('checkbox', { name: 'Badge ordered' }), 'Space');
      expect(await page.getByRole('checkbox', { name: 'Badge ordered' }).isChecked()).toBe(true);
      if (engine === 'sqlite') await page.screenshot({ path: new URL('../../docs/app-step-phone.png', import.meta.url).pathname, fullPage: true });
      await press(page, page.getByRole('button', { name: 'Save answers' }));
      await press(page, page.getByRole('button', { name: /^Continue/ }));

      // Step 2 (Engineering): the author's rule is what a wrong serial number is told.
      await page.getByRole('heading', { level: 1, name: 'Set up the laptop' }).waitFor();
      await type(page, page.getByLabel(/serial/i), 'lt-1');
      await press(page, page.getByRole('button', { name: 'Save answers' }));
      await expect.poll(() => page.getByRole('main').textContent()).toContain('Use the serial number on the back of the laptop');
      await expectAccessible(page, 'journey: a step with a refusal');
      await tabTo(page, page.getByLabel(/serial/i));
      await page.keyboard.press('Control+A');
      await page.keyboard.type('LT-20391');
      await press(page, page.getByRole('button', { name: 'Save answers' }));
      await press(page, page.getByRole('button', { name: /^Continue/ }));

      // The last step: the button says it completes the trail.
      await page.getByRole('heading', { level: 1, name: 'Plan the first week' }).waitFor();
      await type(page, page.getByLabel('Goals for the first week'), 'Ship a first fix.');
      await press(page, page.getByRole('checkbox', { name: 'Met the whole team' }), 'Space');
      await press(page, page.getByRole('button', { name: 'Save answers' }));
      await press(page, page.getByRole('button', { name: 'Complete the trail' }));
      await expect.poll(() => page.getByRole('main').textContent(), { timeout: 15_000 }).toContain('Completed');
      await expectAccessible(page, 'journey: the finished trail');

      // The owner invites a colleague; without mail, the link is shown once, and it signs the colleague in.
      await press(page, nav.getByRole('link', { name: 'People' }));
      await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
      // The owner gives themself a name and an email first (the first start named them "owner").
      await tabTo(page, page.getByLabel('Name of owner'));
      await page.keyboard.press('Control+A');
      await page.keyboard.type('Olive Owner');
      await type(page, page.getByLabel('Email of owner'), 'olive@example.com');
      await press(page, page.getByRole('button', { name: 'Save owner' }));
      await page.getByRole('heading', { level: 2, name: 'Olive Owner (you)' }).waitFor();
      const form = page.getByRole('main').locator('section', { has: page.getByRole('heading', { name: 'Invite a person' }) });
      await type(page, form.getByLabel('Name', { exact: true }), 'Sam Okafor');
      await type(page, form.getByLabel('Email', { exact: true }), 'sam@example.com');
      await press(page, form.getByRole('button', { name: 'Invite' }));
      const shown = page.getByRole('main').getByLabel(/Sign-in link for/);
      await shown.waitFor();
      await expectAccessible(page, 'journey: an invitation with its link');
      const link = (await shown.inputValue().catch(() => shown.textContent())) ?? '';
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/app\/signin\?token=/);

      const colleague = await (await run.browser().newContext({ viewport: PHONE, locale: 'en-US' })).newPage();
      await colleague.goto(link);
      await colleague.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      expect(await colleague.getByRole('banner').textContent()).toContain('Sam Okafor');
      await colleague.context().close();
      await context.close();
    });
  });
}
