/**
 * People and access in the web app (issue 28), in a real Chromium against a real `waymark serve`: an Admin opens
 * People from the navigation and invites a person by name and email. With a real SMTP server (started here) the
 * page says the link is on its way, the mail arrives carrying it, and the invited person signs in with it and has
 * no People page (they are no Admin). Without SMTP, the link is shown once with a Copy button and signs the person
 * in; the Admin then ends all of their sessions and access behind the confirm dialog, and the person's page is
 * signed out. An Admin makes a scope by name, invites a person into it and moves them back, the list naming the scope;
 * an Admin of one scope is offered only that scope and makes none. axe-core runs on each state. Skipped without Chromium. (The consent page's bound by the maximum is
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
    const adminPage = async (server: HostileServer, scopeId: string | null = null, name = 'Ada Admin'): Promise<Page> => {
      const admin = await server.services.auth.createToken({ accountId: server.accountId, scopeId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name, email: `${name.split(' ')[0].toLowerCase()}@example.com` });
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

    test('an Admin makes a scope and invites a person into it by name; an Admin of one scope is offered only theirs', { timeout: 90_000 }, async () => {
      const page = await adminPage(plain, null, 'Ann Account');
      const main = page.getByRole('main');
      const scopes = main.locator('section', { has: page.getByRole('heading', { name: 'Scopes' }) });
      await scopes.getByLabel('New scope').fill('Field team');
      await scopes.getByRole('button', { name: 'Make scope' }).click();
      await expect.poll(() => main.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Made the scope Field team: you can now invite people into it or move people there.');
      await scopes.getByRole('list', { name: 'Scopes' }).getByText('Field team', { exact: true }).waitFor();
      // The same name again, case aside, is refused in words beside the field.
      await scopes.getByLabel('New scope').fill('FIELD TEAM');
      await scopes.getByRole('button', { name: 'Make scope' }).click();
      await expect.poll(() => scopes.getByRole('alert').textContent(), { timeout: 10_000 }).toContain('your account already has a scope named "FIELD TEAM"');
      await expectAccessible(page, 'people, a scope made and a name refused');

      const form = main.locator('section', { has: page.getByRole('heading', { name: 'Invite a person' }) });
      expect(await form.getByLabel('Where they work').locator('option').allTextContents()).toEqual(['The whole account', 'Field team']);
      await form.getByLabel('Where they work').selectOption({ label: 'Field team' });
      await invite(page, 'Fay Field', 'fay@example.com');
      await expect.poll(() => main.locator('.page-result').first().textContent(), { timeout: 10_000 }).toBe('Invited Fay Field. Copy their sign-in link below and give it to them.');
      const fay = main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Fay Field' }) });
      await expect.poll(() => fay.locator('dt:text-is("Where") + dd').textContent()).toBe('Field team');
      const fayRow = await plain.services.store.db.selectFrom('principals').innerJoin('scopes', 'scopes.id', 'principals.scope_id').select('scopes.name').where('principals.name', '=', 'Fay Field').executeTakeFirstOrThrow();
      expect(fayRow.name).toBe('Field team');

      // Moved to the whole account from the change form, by name.
      await fay.getByLabel('Where Fay Field works').selectOption({ label: 'The whole account' });
      await fay.getByRole('button', { name: 'Save Fay Field' }).click();
      await expect.poll(() => main.locator('.page-result').textContent(), { timeout: 10_000 }).toBe('Saved Fay Field: View in the whole account, at most read flows and trails, run trails.');
      await expect.poll(() => main.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Fay Field' }) }).locator('dt:text-is("Where") + dd').textContent()).toBe('The whole account');
      await page.context().close();

      // An Admin of the scope is offered it alone, and no form to make scopes.
      const scopeId = (await plain.services.store.db.selectFrom('scopes').select('id').where('account_id', '=', plain.accountId).where('name', '=', 'Field team').executeTakeFirstOrThrow()).id;
      const scoped = await adminPage(plain, scopeId, 'Sid Scoped');
      const scopedMain = scoped.getByRole('main');
      const scopedForm = scopedMain.locator('section', { has: scoped.getByRole('heading', { name: 'Invite a person' }) });
      await expect.poll(() => scopedForm.getByLabel('Where they work').locator('option').allTextContents()).toEqual(['Field team']);
      expect(await scopedMain.getByLabel('New scope').count()).toBe(0);
      await expect.poll(() => scopedMain.getByRole('listitem').filter({ has: scoped.getByRole('heading', { level: 2, name: /Sid Scoped/ }) }).locator('dt:text-is("Where") + dd').textContent()).toBe('Field team');
      await expectAccessible(scoped, 'people, an Admin of one scope');
      await scoped.context().close();
    });
  });
}
