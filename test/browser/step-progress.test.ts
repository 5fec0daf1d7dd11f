/**
 * Progress on the step and a stale step (issue 28), in a real Chromium against a real `waymark serve`, on a branching
 * flow: the step says where the trail stands ("Step 1 · 0 done · …") with the steps as a list; the Next block and its
 * button follow the branch's option as it is picked, before anything is saved (the server's connection rule, run in
 * the page); two people on one step: the one who comes second is told who moved the trail on, in words, and reloads
 * to the step it is at. At 390 px wide; axe-core on each state. Skipped without Chromium.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Page } from 'playwright-core';
import { allCapabilityNames } from '../../src/config.js';
import { ENGINES } from '../engines.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { expectAccessible, HAVE_CHROMIUM, useBrowser } from './chromium.js';

const run = useBrowser('step-progress');
const WEB_ROOT = run.webRoot;

const idOf = (data: Record<string, unknown>) => String(data.bit_id);
const minted = (data: Record<string, unknown>, key: string) => (data.minted_node_ids as Record<string, string>)[key]!;

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`progress and a stale step, in the web app (${engine})`, () => {
    let server: HostileServer;
    let ann: Page;
    let bo: Page;
    let trailId: string;
    const stepUrl = () => new URL(`/app/#/trails/${encodeURIComponent(trailId)}/step`, server.base).href;
    const open = async (principalId: string) => {
      const link = await server.services.signin.createLink({ principalId, capabilities: allCapabilityNames() });
      const page = await (await run.browser().newContext({ viewport: { width: 390, height: 844 } })).newPage();
      await page.goto(new URL(`/app/signin?token=${encodeURIComponent(link.token)}`, server.base).href);
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      return page;
    };
    const progress = (page: Page) => page.getByRole('main').locator('.progress-line').textContent();
    const stepsList = (page: Page) => page.getByRole('list', { name: 'Steps of this trail' }).getByRole('listitem').allTextContents();
    const next = (page: Page) => page.getByRole('main').locator('.next-what').textContent();
    const primary = (page: Page) => page.getByRole('main').locator('.next button.primary').textContent();

    beforeAll(async () => {
      server = await startHostileServer(engine, { WAYMARK_WEB_ROOT: WEB_ROOT });
      const auth = server.services.auth;
      const annId = (await auth.createToken({ accountId: server.accountId, permission: 'view', capabilities: allCapabilityNames(), kind: 'person', name: 'Ann Lee' })).principalId;
      const boId = (await auth.createToken({ accountId: server.accountId, permission: 'view', capabilities: allCapabilityNames(), kind: 'person', name: 'Bo Berg' })).principalId;
      const add = (args: Record<string, unknown>) => ok(server, 'add_bit', args);
      const close = idOf(await add({ bit_title: 'Close the file', bit_body: 'File everything.' }));
      const legal = idOf(await add({ bit_title: 'Legal review', bit_body: `A lawyer reads it.\n\n[Then](bit-connection:${close})\n` }));
      const kickoff = idOf(await add({ bit_title: 'Kickoff call', bit_body: `Call the client.\n\n[Then](bit-connection:${close})\n` }));
      const sign = idOf(
        await add({
          bit_title: 'Sign the contract',
          bit_body: `Get it signed.\n\n[dropdown: Signed by](waymark-node:by)\n- [Client](waymark-node:c)\n- [Lawyer](waymark-node:l)\n\n[Legal](bit-connection:${legal}?when=by:l)\n\n[Kickoff](bit-connection:${kickoff})\n`,
          elements: [{ key: 'by', type: 'dropdown', props: { label: 'Signed by' }, items: [{ key: 'c', value: 'client' }, { key: 'l', value: 'lawyer' }] }],
        }),
      );
      const review = idOf(
        await add({
          bit_title: 'Premium review',
          bit_body: `Review the premium request.\n\n[text-area: Notes](waymark-node:notes)\n\n[Then](bit-connection:${sign})\n`,
          elements: [{ key: 'notes', type: 'text-area', props: { label: 'Notes' } }],
        }),
      );
      const basic = idOf(await add({ bit_title: 'Basic setup', bit_body: `Set it up.\n\n[Then](bit-connection:${close})\n` }));
      const pick = await add({
        bit_title: 'Pick the plan',
        bit_body: `Which plan?\n\n[dropdown: Plan](waymark-node:plan)\n- [Basic](waymark-node:b)\n- [Premium](waymark-node:p)\n\n[Premium](bit-connection:${review}?when=plan:p)\n\n[Basic](bit-connection:${basic}?when=plan:b)\n`,
        elements: [{ key: 'plan', type: 'dropdown', props: { label: 'Plan' }, items: [{ key: 'b', value: 'basic' }, { key: 'p', value: 'premium' }] }],
      });
      expect(minted(pick, 'plan')).toBeTruthy();
      const flow = String((await ok(server, 'create_flow', { flow_title: 'Onboarding', start_bit_id: idOf(pick) })).flow_id);
      trailId = String((await ok(server, 'start_trail', { flow_id: flow, trail_title: 'Acme' })).trail_id);
      ann = await open(annId);
      bo = await open(boId);
    }, 120_000);
    afterAll(async () => {
      for (const page of [ann, bo]) await page?.context().close();
      await server?.close();
    });

    test('the progress and the Next block follow the option picked, before it is saved', async () => {
      await ann.goto(stepUrl());
      await ann.getByRole('heading', { level: 1, name: 'Pick the plan' }).waitFor();
      // No option picked: no way on is open, so continuing completes the trail, and the progress says so.
      expect(await progress(ann)).toBe('Step 1 · 0 done · maybe the last step');
      expect(await next(ann)).toBe('No way on is open with these answers: continuing completes the trail.');
      expect(await primary(ann)).toBe('Complete the trail');
      expect(await stepsList(ann)).toEqual(['This step: Pick the plan']);
      await expectAccessible(ann, 'step 1, nothing picked');

      await ann.getByLabel('Plan', { exact: true }).selectOption({ label: 'Premium' });
      await expect.poll(() => next(ann)).toBe('Next step: Premium review');
      expect(await primary(ann)).toBe('Save and continue to Premium review');
      // Sign the contract branches on an answer not given yet: its likely way, told as "about".
      expect(await progress(ann)).toBe('Step 1 · 0 done · about 4 more');
      expect(await stepsList(ann)).toEqual(['This step: Pick the plan', 'Likely ahead: Premium review', 'Likely ahead: Sign the contract', 'Likely ahead: Kickoff call', 'Likely ahead: Close the file']);
      await expectAccessible(ann, 'step 1, Premium picked');

      await ann.getByLabel('Plan', { exact: true }).selectOption({ label: 'Basic' });
      await expect.poll(() => next(ann)).toBe('Next step: Basic setup');
      expect(await primary(ann)).toBe('Save and continue to Basic setup');
      expect(await progress(ann)).toBe('Step 1 · 0 done · 2 more');
      expect(await stepsList(ann)).toEqual(['This step: Pick the plan', 'Ahead: Basic setup', 'Ahead: Close the file']);

      await ann.getByLabel('Plan', { exact: true }).selectOption({ label: 'Premium' });
      await ann.getByRole('button', { name: 'Save and continue to Premium review' }).click();
      await ann.getByRole('heading', { level: 1, name: 'Premium review' }).waitFor();
      expect(await progress(ann)).toBe('Step 2 · 1 done · about 3 more');
      expect(await stepsList(ann)).toEqual(['Done: Pick the plan', 'This step: Premium review', 'Likely ahead: Sign the contract', 'Likely ahead: Kickoff call', 'Likely ahead: Close the file']);
      expect(await primary(ann)).toBe('Continue to Sign the contract');
      await expectAccessible(ann, 'step 2');
    });

    test('two people on one step: the second is told who moved the trail on, and reloads to where it is', async () => {
      await bo.goto(stepUrl());
      await bo.getByRole('heading', { level: 1, name: 'Premium review' }).waitFor();
      await bo.getByLabel('Notes', { exact: true }).fill('Looks fine.');
      await bo.getByRole('button', { name: 'Save and continue to Sign the contract' }).click();
      await bo.getByRole('heading', { level: 1, name: 'Sign the contract' }).waitFor();

      // Ann still has Premium review open: her Save is refused, in words, and nothing of hers is kept.
      await ann.getByLabel('Notes', { exact: true }).fill('My own notes.');
      await ann.getByRole('button', { name: 'Save answers' }).click();
      const alert = ann.getByRole('main').locator('.stale');
      await expect.poll(() => alert.locator('p').first().textContent(), { timeout: 10_000 }).toBe('Bo Berg moved this trail on to “Sign the contract” just now.');
      expect(await alert.getAttribute('role')).toBe('alert');
      expect(await alert.textContent()).not.toMatch(/[0-9a-f]{8}-|element|VALIDATION/);
      await expectAccessible(ann, 'a stale step');

      await ann.getByRole('button', { name: 'Reload the step' }).click();
      await ann.getByRole('heading', { level: 1, name: 'Sign the contract' }).waitFor();
      expect(await ann.getByRole('main').locator('.stale').count()).toBe(0);
      expect(await progress(ann)).toBe('Step 3 · 2 done · about 2 more');
      expect(await stepsList(ann)).toEqual(['Done: Pick the plan', 'Done: Premium review', 'This step: Sign the contract', 'Likely ahead: Kickoff call', 'Likely ahead: Close the file']);

      // Continue from a step left meanwhile is refused the same way (no answer to save first).
      await bo.getByLabel('Signed by', { exact: true }).selectOption({ label: 'Lawyer' });
      await expect.poll(() => next(bo)).toContain('Where next?');
      await bo.getByLabel(/Legal review/).check();
      expect(await primary(bo)).toBe('Save and continue to Legal review');
      expect(await progress(bo)).toBe('Step 3 · 2 done · 2 more');
      await bo.getByRole('button', { name: 'Save and continue to Legal review' }).click();
      await bo.getByRole('heading', { level: 1, name: 'Legal review' }).waitFor();
      await ann.getByRole('button', { name: /^Continue/ }).click();
      await expect.poll(() => ann.getByRole('main').locator('.stale p').first().textContent(), { timeout: 10_000 }).toBe('Bo Berg moved this trail on to “Legal review” just now.');
      await ann.getByRole('button', { name: 'Reload the step' }).click();
      await ann.getByRole('heading', { level: 1, name: 'Legal review' }).waitFor();
    });
  });
}
