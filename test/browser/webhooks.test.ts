/**
 * Webhooks in the web app (issue 29), in a real Chromium against a real `waymark serve` whose deliverer runs (loopback
 * receivers allowed, polled every 50 ms, retries a two-thousandth of their real length) and a receiver on this
 * machine that checks every signature with the `standardwebhooks` library. An Admin adds a webhook (a plain-http
 * address refused in words first), reads its secret once, sends a test event, sees a change delivered and logged,
 * sends an attempt again; the receiver fails and the page says so, the webhook is disabled and enabled again and the
 * waiting event arrives; the secret is rotated (both sign meanwhile) and the webhook removed, each after a confirmation.
 * A person who is not an Admin has no Webhooks in the navigation. axe-core runs on each state. Skipped without Chromium.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Locator, type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import type { DeliveryPage, WebhookPayload, WebhookView } from '../../src/services/webhooks/shapes.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/services/webhooks/event-types.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';


const run = useBrowser('webhooks');
const WEB_ROOT = run.webRoot;

interface Received {
  id: string;
  payload: WebhookPayload;
  /** Which of the receiver's secrets verified the request's signature. */
  verifiedBy: string[];
}

/** A receiver on 127.0.0.1: answers `status`, and checks each request's signature against every one of `secrets`. */
class Receiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  status = 204;
  url = '';
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const verifiedBy = this.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers);
            return true;
          } catch {
            return false;
          }
        });
        this.received.push({ id: headers['webhook-id'] ?? '', payload: JSON.parse(body) as WebhookPayload, verifiedBy });
        res.writeHead(this.status).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/waymark`;
  }

  of(type: string, resourceId?: string): Received[] {
    return this.received.filter((r) => r.payload.type === type && (resourceId === undefined || r.payload.data.resource_id === resourceId));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`webhooks in the web app (${engine})`, () => {
    let server: HostileServer;
    let page: Page;
    let editor: { principalId: string };
    const receiver = new Receiver();
    let secret = '';
    const cspErrors: string[] = [];
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;
    /** A one-time sign-in link with every capability (a session gets read and run only by default). */
    const link = async (principalId: string) => {
      const issued = await server.services.signin.createLink({ principalId, capabilities: allCapabilityNames() });
      return new URL(`/app/signin?token=${encodeURIComponent(issued.token)}`, server.base).href;
    };
    /** REST with the owner's key: what the server holds, beside what the page shows. */
    const rest = async <T>(path: string): Promise<T> => {
      const res = await fetch(new URL(`/api/v1${path}`, server.base), { headers: { authorization: `Bearer ${server.token}` } });
      return ((await res.json()) as { data: T }).data;
    };
    const card = (): Locator => page.getByRole('article', { name: receiver.url });
    const fact = (name: string) => card().locator(`.webhook-${name}`);
    /** The list read again now (it also refreshes itself every few seconds). */
    const refreshed = async (read: () => Promise<string | null>) => {
      await page.getByRole('button', { name: 'Refresh', exact: true }).click();
      return read();
    };
    const logRows = () => card().locator('table.deliveries tbody tr');
    const logTexts = async () => {
      await card().getByRole('button', { name: 'Refresh the log' }).click();
      return (await logRows().allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    };

    beforeAll(async () => {
      await receiver.start();
      server = await startHostileServer(engine, {
        WAYMARK_WEB_ROOT: WEB_ROOT,
        WAYMARK_WEBHOOK_ALLOW_LOOPBACK: '1',
        WAYMARK_WEBHOOK_POLL_MS: '50',
        // An hour of failures becomes 1.8 s, the retries 2.5 ms, 15 ms, 60 ms… : "failing" within seconds.
        WAYMARK_WEBHOOK_RETRY_SCALE: '0.0005',
      });
      const auth = server.services.auth;
      const admin = await auth.createToken({ accountId: server.accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: 'person', name: 'Ada Admin' });
      editor = await auth.createToken({ accountId: server.accountId, permission: 'edit', capabilities: allCapabilityNames(), kind: 'person', name: 'Robin Editor' });
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
      await receiver.close();
    });

    test('an Admin adds a webhook: a plain-http address is refused in words, then the secret is shown once', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await expect.poll(() => page.locator('.counts').textContent()).toBe('No webhooks yet.');
      // The event types are the server's own list, each with what it means.
      expect(await page.getByRole('group', { name: 'Events to send' }).getByRole('checkbox').count()).toBe(WEBHOOK_EVENT_TYPES.length + 1); // every type, and All events
      expect(await page.locator('#webhook-type-bit\\.changed-text').textContent()).toBe('A bit was added, changed, archived, restored, connected or linked.');
      await expectAccessible(page, 'webhooks, none yet');

      // Nothing filled in: both problems said at their fields, the address first, and nothing sent.
      const add = page.getByRole('button', { name: 'Add the webhook' });
      await add.click();
      await expect.poll(() => page.locator('#webhook-url-error').textContent()).toBe('Write the address that should receive the events, starting with https://');
      expect(await page.locator('#webhook-types-error').textContent()).toBe('Choose at least one kind of event, or All events.');
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('webhook-url');

      // An address the server refuses (VALIDATION_ERROR on url), in a person's words.
      const url = page.getByLabel("Receiver's address");
      await url.fill('http://example.com/hooks');
      await page.getByLabel('bit.changed').check();
      await add.click();
      await expect.poll(() => page.locator('#webhook-url-error').textContent()).toMatch(/^Use an https address/);
      expect(await url.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator('#webhook-types-error').count()).toBe(0);
      expect((await rest<{ webhooks: WebhookView[] }>('/webhooks')).webhooks).toEqual([]);

      await url.fill(receiver.url);
      await page.getByLabel('Description (optional)').fill('The test receiver');
      await add.click();
      const shown = page.getByRole('region', { name: 'The webhook was added: its signing secret' });
      await shown.waitFor();
      secret = await shown.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
      expect(await shown.getByLabel('Signing secret').getAttribute('readonly')).not.toBeNull();
      expect(await shown.locator('#secret-once').textContent()).toContain('Copy it now: you will not see it again.');
      const snippet = (await shown.locator('pre.snippet').textContent()) ?? '';
      expect(snippet).toContain("import { Webhook } from 'standardwebhooks';");
      expect(snippet).toContain('webhook.verify(req.body, req.headers)');
      await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('secret-title');

      await card().waitFor();
      expect(await fact('status').textContent()).toBe('Delivering.');
      expect(await fact('types').textContent()).toBe('bit.changed');
      expect(await fact('last').textContent()).toBe('None yet.');
      expect(await card().locator('.webhook-description').textContent()).toBe('The test receiver');
      const made = (await rest<{ webhooks: WebhookView[] }>('/webhooks')).webhooks;
      expect(made.map((w) => [w.url, w.event_types, w.status])).toEqual([[receiver.url, ['bit.changed'], 'active']]);
      await expectAccessible(page, 'webhooks, the secret shown');
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1000, height: 900 });

      // Once: the page read again has no trace of it.
      await page.reload();
      await card().waitFor();
      expect(await page.getByRole('region', { name: /signing secret/ }).count()).toBe(0);
      expect(await page.evaluate('document.documentElement.outerHTML')).not.toContain(secret.slice(6));
    });

    test('a test event reaches the receiver signed with that secret; a change is delivered and logged; an attempt is sent again', async () => {
      receiver.secrets = [secret];
      await card().getByRole('button', { name: 'Send a test event' }).click();
      await expect.poll(() => card().locator('.webhook-result').textContent()).toMatch(/^Test event delivered: your receiver answered 204 in \d+ ms\.$/);
      const tests = receiver.of('webhook.test');
      expect(tests.length).toBe(1);
      expect(tests[0]?.verifiedBy).toEqual([secret]);
      expect(tests[0]?.payload.data.resource_id).toBe((await rest<{ webhooks: WebhookView[] }>('/webhooks')).webhooks[0]?.webhook_id);

      // A change through MCP: the deliverer sends it; the page logs it.
      const bitId = id(await ok(server, 'add_bit', { bit_title: 'Deploy check', bit_body: 'Check the logs.\n' }), 'bit_id');
      await expect.poll(() => receiver.of('bit.changed', bitId).length, { timeout: 10_000 }).toBe(1);
      expect(receiver.of('bit.changed', bitId)[0]?.verifiedBy).toEqual([secret]);
      expect(receiver.of('bit.changed', bitId)[0]?.payload.data.operation).toBe('add_bit');

      const toggle = card().getByRole('button', { name: 'Show the delivery log' });
      await toggle.click();
      expect(await card().getByRole('button', { name: 'Hide the delivery log' }).getAttribute('aria-expanded')).toBe('true');
      await expect.poll(logTexts).toHaveLength(2);
      const [newest, oldest] = await logTexts();
      expect(newest).toMatch(/bit\.changed \(change \d+\) 1 Delivered \(answered 204\) \d+ ms Send again/);
      expect(oldest).toMatch(/webhook\.test \(a test\) 1 Delivered \(answered 204\) \d+ ms Send again/);
      await expect.poll(() => refreshed(() => fact('last').textContent())).toMatch(/^Delivered \(answered 204\) at .+\.$/);
      expect(await fact('behind').textContent()).toBe('Up to date.');

      // The test event's attempt, again: the same webhook-id (the receiver's idempotency key), attempt 2.
      await card().getByRole('button', { name: /^Send again webhook\.test, attempt 1/ }).click();
      await expect.poll(() => card().locator('.webhook-result').textContent()).toMatch(/^webhook\.test sent again and delivered: your receiver answered 204 in \d+ ms\.$/);
      expect(receiver.of('webhook.test').map((r) => r.id)).toEqual([tests[0]?.id, tests[0]?.id]);
      expect(receiver.of('webhook.test')[1]?.verifiedBy).toEqual([secret]);
      await expect.poll(async () => (await logTexts())[0]).toMatch(/^.+ webhook\.test \(a test\) 2 Delivered/);
      await expectAccessible(page, 'webhooks, the delivery log open');
    });

    test('a failing receiver: the status and the log say so; disabled, then enabled again, the waiting change arrives', async () => {
      receiver.status = 500;
      const bitId = id(await ok(server, 'add_bit', { bit_title: 'Rollback plan', bit_body: 'Write it down.\n' }), 'bit_id');
      await expect.poll(() => refreshed(() => fact('status').textContent()), { timeout: 15_000, interval: 500 }).toMatch(
        /^Failing since .+: \d+ attempts on the oldest event; next try at .+\.$/,
      );
      expect(await fact('last').textContent()).toMatch(/^Failed \(answered 500\) at .+\.$/);
      expect(await fact('behind').textContent()).toMatch(/^\d+ changes? of the account not handled yet\.$/);
      const failures = (await logTexts()).filter((t) => t.includes('Failed: answered 500'));
      expect(failures.length).toBeGreaterThanOrEqual(5);
      expect(failures.every((t) => t.includes('bit.changed'))).toBe(true);
      expect(receiver.of('bit.changed', bitId).every((r) => r.verifiedBy.length === 1)).toBe(true);
      await expectAccessible(page, 'webhooks, failing');

      // The receiver mends; the Admin stops the webhook and starts it again, which tries the waiting change at once.
      receiver.status = 204;
      await card().getByRole('button', { name: 'Disable' }).click();
      await expect.poll(() => card().locator('.webhook-result').textContent()).toBe('Disabled: nothing is sent to it until it is enabled again; the changes meanwhile wait for it.');
      expect(await fact('status').textContent()).toMatch(/^Stopped: nothing is sent until it is enabled again, which resumes from the event it stopped at\. Its oldest waiting event failed \d+ times\.$/);
      await card().getByRole('button', { name: 'Enable' }).click();
      await expect.poll(() => card().locator('.webhook-result').textContent()).toBe('Enabled: it sends again from the event it stopped at.');
      await expect.poll(() => receiver.received.filter((r) => r.payload.data.resource_id === bitId).at(-1)?.verifiedBy.length, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => refreshed(() => fact('status').textContent())).toBe('Delivering.');
      await expect.poll(async () => (await logTexts())[0]).toMatch(/bit\.changed .* Delivered \(answered 204\)/);

      // The log a page at a time: ten, then the older ones (one more test event makes sure there are more than ten).
      await card().getByRole('button', { name: 'Send a test event' }).click();
      await expect.poll(() => card().locator('.webhook-result').textContent()).toMatch(/^Test event delivered/);
      const total = (await rest<DeliveryPage>(`/webhooks/${(await rest<{ webhooks: WebhookView[] }>('/webhooks')).webhooks[0]?.webhook_id}/deliveries?limit=100`)).deliveries.length;
      expect(total).toBeGreaterThan(10);
      await card().getByRole('button', { name: 'Hide the delivery log' }).click();
      await card().getByRole('button', { name: 'Show the delivery log' }).click();
      await expect.poll(() => logRows().count()).toBe(10);
      expect(await card().locator('table.deliveries caption').textContent()).toBe('10 attempts shown, newest first; older ones follow.');
      await card().getByRole('button', { name: 'Show older deliveries' }).click();
      await expect.poll(() => logRows().count()).toBe(Math.min(total, 20));
    });

    test('the secret is rotated after a confirmation: the new one shown once, the old one still signing until the time said', async () => {
      await card().getByRole('button', { name: 'Rotate the secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
      await dialog.waitFor();
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Cancel');
      await expectAccessible(page, 'rotate confirmation');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await page.evaluate('document.activeElement?.textContent')).toBe('Rotate the secret');

      await card().getByRole('button', { name: 'Rotate the secret' }).click();
      expect(await dialog.getByLabel('The old secret goes on signing for').inputValue()).toBe('24');
      await dialog.getByRole('button', { name: 'Rotate the secret' }).click();
      const shown = page.getByRole('region', { name: 'The new signing secret' });
      await shown.waitFor();
      const rotated = await shown.getByLabel('Signing secret').inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect(await shown.locator('.overlap').textContent()).toMatch(/^The old secret still signs beside the new one until .+: give your receiver the new one before then\.$/);
      expect(await card().locator('.facts').textContent()).toContain('Old secret');
      await expectAccessible(page, 'webhooks, a rotated secret shown');

      // Meanwhile both secrets sign each delivery: a receiver with either verifies it.
      receiver.secrets = [secret, rotated];
      const bitId = id(await ok(server, 'add_bit', { bit_title: 'Release notes', bit_body: 'Write them.\n' }), 'bit_id');
      await expect.poll(() => receiver.of('bit.changed', bitId).length, { timeout: 10_000 }).toBe(1);
      expect(receiver.of('bit.changed', bitId)[0]?.verifiedBy).toEqual([secret, rotated]);

      await shown.getByRole('button', { name: 'I have copied the secret' }).click();
      await shown.waitFor({ state: 'detached' });
    });

    test('the webhook is removed after a confirmation, and nothing more is sent to it', async () => {
      await card().getByRole('button', { name: 'Remove' }).click();
      const dialog = page.getByRole('dialog', { name: 'Remove this webhook?' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('This cannot be undone: to pause it instead, disable it.');
      await dialog.getByRole('button', { name: 'Remove the webhook' }).click();
      await expect.poll(() => page.locator('.page-result').textContent()).toBe(`Removed the webhook for ${receiver.url}: nothing more is sent to it.`);
      expect(await page.locator('.counts').textContent()).toBe('No webhooks yet.');
      await expect.poll(() => page.evaluate('document.activeElement?.tagName')).toBe('H1');
      expect((await rest<{ webhooks: WebhookView[] }>('/webhooks')).webhooks).toEqual([]);
      const before = receiver.received.length;
      await ok(server, 'add_bit', { bit_title: 'After removal', bit_body: 'Nobody hears this.\n' });
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received.length).toBe(before);
      await expectAccessible(page, 'webhooks, removed');
      expect(cspErrors).toEqual([]);
    });

    test('a person who is not an Admin has no Webhooks in the navigation, and the page says why', async () => {
      const context = await run.browser().newContext();
      const other = await context.newPage();
      await other.goto(await link(editor.principalId));
      await other.getByRole('heading', { name: 'Inbox' }).waitFor();
      expect(await other.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toEqual(['Inbox', 'Trails', 'Flows', 'References']);
      await other.goto(app('#/webhooks'));
      await other.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      expect(await other.locator('main .notice').textContent()).toBe("Webhooks, which send the account's changes to other systems, are for Admins. Ask an Admin of your account to add one.");
      expect(await other.getByRole('button', { name: 'Add the webhook' }).count()).toBe(0);
      await context.close();
    });
  });
}
