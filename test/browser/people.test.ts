/**
 * People and access in the web app (issue 28), in a real Chromium against a real `waymark serve`: an Admin opens
 * People from the navigation and invites a person by name and email. With a real SMTP server (started here) the
 * page says the link is on its way, the mail arrives carrying it, and the invited person signs in with it and has
 * no People page (they are no Admin). Without SMTP, the link is shown once with a Copy button and signs the person
 * in; the Admin then ends all of their sessions and access behind the confirm dialog, and the person's page is
 * signed out. axe-core runs on each state. Skipped without Chromium. (The consent page's bound by the maximum is
 * covered over HTTP: src/operations/auth/people-access.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { startHostileServer, type HostileServer } from '../hostile/harness.js';
import { SmtpReceiver } from '../smtp-receiver.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('people');
const WEB_ROOT = run.webRoot;

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`people in the web app (${engine})`, () => {
    let smtp: SmtpReceiver;
    let mailing: HostileServer;
    let plain: HostileServer;

    /** A signed-in Admin's page on `server`. */
    const adminPage = async (server: HostileServer): Promise<Page> => {
      const admin = await server.services.auth.createToken({ accountId: server.accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Ada Admin', email: 'ada@example.com' });
      const issued = await server.services.signin.createLink({ principalId: admin.principalId, capabilities: allCapabilityNames() });
      const page = await (await run.browser().newContext({ viewport: { width: 1000, height: 900 } })).newPage();
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(issued.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
      await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
      return page;
    };

    const invite = async (page: Page, name: string, email: string) => {
      const form = page.getByRole('main').locator('section', { has: page.getByRole('heading', { name: 'Invite a person' }) });
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Email', { exact: true }).fill(email);
      await form.getByLabel('Permission').selectOption('view');
      // Read and run are ticked by default; this person may only run trails and read.
      expect(await form.getByLabel('Write flows').isChecked()).toBe(false);
      await form.getByRole('button', { name: 'Invite' }).click();
    };

    beforeAll(async () => {
      smtp = await new SmtpReceiver().start();
      mailing = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT, WAYMARK_SMTP_URL: smtp.url, WAYMARK_MAIL_POLL_MS: '50', WAYMARK_MAIL_FROM: 'Waymark Test <noreply@waymark.test>' });
      plain = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT, WAYMARK_SMTP_URL: '' });
    }, 120_000);
    afterAll(async () => {
      await mailing?.close();
      await plain?.close();
      await smtp?.stop();
    });

    test('with SMTP, an invitation is mailed with its link, and the person signs in with it', { timeout: 90_000 }, async () => {
      const page = await adminPage(mailing);
      await expectAccessible(page, 'people, before an invitation');
      await invite(page, 'Rae Runner', 'rae@example.com');
      const main = page.getByRole('main');
      await expect.poll(() => main.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Invited Rae Runner: a sign-in link is on its way to rae@example.com.');
      // The focus is on what the action did.
      expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className)).toBe('page-result-region');
      expect(await main.getByLabel(/Sign-in link for/).count()).toBe(0);
      await main.getByRole('heading', { level: 2, name: 'Rae Runner' }).waitFor();
      await expectAccessible(page, 'people, after a mailed invitation');

      await until('the invitation mail', () => smtp.messages.some((m) => m.to.includes('rae@example.com')));
      const mail = smtp.messages.find((m) => m.to.includes('rae@example.com'))!;
      expect(mail.subject).toBe('Ada Admin invited you to Waymark');
      const link = /Sign in: (\S+)/.exec(mail.text)?.[1];
      // Once the mail is sent, no row keeps the link.
      const queued = () => mailing.services.store.db.selectFrom('notifications').select(['email_state', 'summary']).where('kind', '=', 'invited').executeTakeFirstOrThrow();
      await until('the invitation settled', async () => (await queued()).email_state === 'sent');
      expect((await queued()).summary).toBe('{}');
      expect(link).toMatch(/\/app\/signin\?token=waymark_link_/);
      const person = await (await run.browser().newContext()).newPage();
      await person.goto(link!);
      await person.getByRole('heading', { name: 'Inbox' }).waitFor();
      // Rae is no Admin: no People in the navigation.
      expect(await person.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).count()).toBe(0);
      await person.context().close();
      await page.context().close();
    });

    test('without SMTP, the link is shown once to copy; ending all access signs the person out', { timeout: 90_000 }, async () => {
      const page = await adminPage(plain);
      await invite(page, 'Sol Shown', 'sol@example.com');
      const main = page.getByRole('main');
      await expect.poll(() => main.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Invited Sol Shown. Copy their sign-in link below and give it to them.');
      const field = main.getByLabel('Sign-in link for Sol Shown');
      const link = await field.inputValue();
      expect(link).toMatch(/\/app\/signin\?token=waymark_link_/);
      await main.getByRole('button', { name: 'Copy' }).waitFor();
      await main.getByText('Copy it now: you will not see it again.').waitFor();
      await expectAccessible(page, 'people, a link shown once');

      const person = await (await run.browser().newContext()).newPage();
      await person.goto(link);
      await person.getByRole('heading', { name: 'Inbox' }).waitFor();

      // A reload shows the link no more.
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Sol Shown' }).waitFor();
      expect(await main.getByLabel('Sign-in link for Sol Shown').count()).toBe(0);

      await main.getByRole('button', { name: 'End all sessions and access of Sol Shown' }).click();
      const dialog = page.getByRole('dialog', { name: 'End all sessions and access of Sol Shown?' });
      await dialog.waitFor();
      await expectAccessible(page, 'ending a person\'s access');
      await dialog.getByRole('button', { name: 'End all sessions and access' }).click();
      await expect.poll(() => main.locator('.page-result').textContent(), { timeout: 10_000 }).toBe("Ended Sol Shown's access: 1 sign-in.");

      // The person's next request finds them signed out, and the page says to ask their admin.
      await person.reload();
      await person.getByText(/ask your admin/i).first().waitFor({ timeout: 10_000 });
      await person.context().close();
      await page.context().close();
    });
  });
}
