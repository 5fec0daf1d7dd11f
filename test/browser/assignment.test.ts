/**
 * Who does a step (issue 27) in a real Chromium against a real `waymark serve`: a step offered to a group shows in
 * its members' My groups tab with its count, a member claims it on the step page (the other member then reads who
 * has it, in words, and cannot answer it), releases it, and an Admin reassigns it to a person after confirming; the
 * inbox marks an overdue step and sorts by due time; the trail's context is shown on the step labelled by the flow
 * schema's titles. axe-core runs on every page. Skipped, with a message, when Chromium is missing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('assignment');
const WEB_ROOT = run.webRoot;

const id = (data: Record<string, unknown>, key: string) => String(data[key]);

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`who does a step, in the web app (${engine})`, () => {
    let server: HostileServer;
    let ann: Page;
    let bo: Page;
    let ada: Page;
    let trailId: string;
    let lateId: string;
    const people: Record<'ann' | 'bo' | 'ada', string> = { ann: '', bo: '', ada: '' };
    const app = (hash = '') => new URL(`/app/${hash}`, server.base).href;
    const open = async (principalId: string) => {
      const link = await server.services.signin.createLink({ principalId, capabilities: allCapabilityNames() });
      const page = await (await run.browser().newContext({ viewport: { width: 1000, height: 900 } })).newPage();
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href);
      return page;
    };

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT });
      const auth = server.services.auth;
      const db = server.services.store.db;
      for (const [key, name, permission] of [
        ['ann', 'Ann Lee', 'view'],
        ['bo', 'Bo Berg', 'view'],
        ['ada', 'Ada Admin', 'admin'],
      ] as const) {
        people[key] = (await auth.createToken({ accountId: server.accountId, permission, capabilities: allCapabilityNames(), kind: 'person', name })).principalId;
        await db.updateTable('principals').set({ email: `${key}@example.com` }).where('id', '=', people[key]).execute();
      }
      const group = randomUUID();
      const now = new Date().toISOString();
      await db.insertInto('groups').values({ id: group, account_id: server.accountId, scope_id: null, name: 'Finance', description: null, created_at: now, updated_at: now }).execute();
      for (const key of ['ann', 'bo'] as const) await db.insertInto('group_members').values({ group_id: group, principal_id: people[key], account_id: server.accountId, added_at: now }).execute();
      const bit = id(await ok(server, 'add_bit', { bit_title: 'Approve the budget', bit_body: 'Check the numbers.\n\n[text-area: Decision](waymark-node:decision)\n', elements: [{ key: 'decision', type: 'text-area', props: { label: 'Decision' } }] }), 'bit_id');
      // Who does it, as the groups engineer's add_bit will store it.
      await db.updateTable('bits').set({ assignee: `group:${group}`, expected_duration: 'P2D' }).where('id', '=', bit).execute();
      const flow = id(
        await ok(server, 'create_flow', {
          flow_title: 'Budget',
          start_bit_id: bit,
          trail_context_schema: { type: 'object', properties: { cost_centre: { type: 'string', title: 'Cost centre' } } },
        }),
        'flow_id',
      );
      trailId = id(await ok(server, 'start_trail', { flow_id: flow, trail_title: 'Q3 budget', trail_context: { cost_centre: 'CC-42' } }), 'trail_id');
      lateId = id(await ok(server, 'start_trail', { flow_id: flow, trail_title: 'Q2 budget' }), 'trail_id');
      const gone = new Date(Date.now() - 3_600_000).toISOString();
      await db.updateTable('trails').set({ step_due_at: gone }).where('id', '=', lateId).execute();
      ann = await open(people.ann);
      bo = await open(people.bo);
      ada = await open(people.ada);
    }, 120_000);
    afterAll(async () => {
      for (const page of [ann, bo, ada]) await page?.context().close();
      await server?.close();
    });

    test("the group's steps are in My groups, with counts, the overdue one marked and first by due time", async () => {
      await ann.goto(app());
      await ann.getByRole('navigation', { name: 'Inbox views' }).waitFor();
      await expect.poll(() => ann.getByRole('link', { name: /^My groups \(2\)$/ }).count()).toBe(1);
      // Not an Admin: no Everyone tab.
      expect(await ann.getByRole('link', { name: /^Everyone/ }).count()).toBe(0);
      await ann.getByRole('link', { name: /^My groups/ }).click();
      await expect.poll(() => ann.locator('.inbox-item').count()).toBe(2);
      await ann.getByLabel('Order').selectOption('due');
      await expect.poll(() => ann.locator('.inbox-item').first().textContent()).toContain('Q2 budget');
      expect(await ann.locator('.inbox-item').first().textContent()).toContain('Overdue');
      expect(await ann.locator('.inbox-item').first().textContent()).toContain('For the group Finance, not taken yet');
      await expectAccessible(ann, 'inbox, my groups by due time');
      await ada.goto(app('#/?view=everyone'));
      await expect.poll(() => ada.getByRole('link', { name: /^Everyone \(2\)$/ }).count()).toBe(1);
      await expect.poll(() => ada.locator('.inbox-item').count()).toBe(2);
    });

    test('a member claims the step; the other reads who has it; it is released, then an Admin reassigns it', async () => {
      await ann.goto(app(`#/trails/${trailId}/step`));
      const panel = ann.getByRole('region', { name: 'Who does this step' });
      await expect.poll(() => panel.textContent()).toContain('Waiting for the group Finance.');
      // The context, labelled by the schema's title.
      await expect.poll(() => ann.getByRole('region', { name: 'Started with' }).textContent()).toContain('Cost centreCC-42');
      await expectAccessible(ann, 'step page, offered to a group');
      await ann.getByRole('button', { name: 'Claim this step' }).click();
      await expect.poll(() => panel.textContent()).toContain('Waiting for Ann Lee (from the group Finance).');
      await expect.poll(() => ann.getByRole('main').getByRole('status').first().textContent()).toBe('You have taken this step.');

      await bo.goto(app(`#/trails/${trailId}/step`));
      await expect.poll(() => bo.getByRole('region', { name: 'Who does this step' }).textContent()).toContain('Waiting for Ann Lee (from the group Finance).');
      expect(await bo.getByRole('button', { name: 'Claim this step' }).count()).toBe(0);

      await ann.getByRole('button', { name: 'Release it' }).click();
      await expect.poll(() => panel.textContent()).toContain('Waiting for the group Finance.');

      await ada.goto(app(`#/trails/${trailId}/step`));
      await ada.getByText('Reassign (Admin)').click();
      await ada.getByLabel('Email of the person').fill('bo@example.com');
      await ada.getByRole('button', { name: 'Reassign', exact: true }).click();
      const dialog = ada.getByRole('dialog', { name: 'Reassign this step?' });
      await expect.poll(() => dialog.textContent()).toContain('will be handed to the person bo@example.com');
      await expectAccessible(ada, 'reassign confirmation');
      await dialog.getByRole('button', { name: 'Reassign' }).click();
      await expect.poll(() => ada.getByRole('region', { name: 'Who does this step' }).textContent()).toContain('Waiting for Bo Berg.');

      // Ann's page is stale (it still offers the step to her group): her claim is refused in words that say who has it.
      await ann.getByRole('button', { name: 'Claim this step' }).click();
      await expect.poll(() => ann.getByRole('alert').textContent()).toBe('Bo Berg is doing step "Approve the budget"; ask them or an Admin to hand it to you.');
      await ann.reload();
      await expect.poll(() => ann.getByRole('region', { name: 'Who does this step' }).textContent()).toContain('Waiting for Bo Berg.');
      expect(await ann.getByRole('button', { name: 'Claim this step' }).count()).toBe(0);
    });
  });
}
