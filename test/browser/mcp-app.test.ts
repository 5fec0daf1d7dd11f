/**
 * The step form inside a chat client (issue 14, "Proof"), in a real Chromium: a host page runs an SDK client
 * that announces MCP Apps and ext-apps' AppBridge, loads `ui://waymark/step` in a sandboxed frame whose CSP
 * allows no network, and hands it get_trail's result. The client talks to a real Waymark server (the one
 * `createMcpServer` builds for stdio) on the store of a real `waymark serve`, through a pipe of JSON-RPC
 * messages. A person answers a step holding every element type; the answers are stored and the trail moves
 * on; the server's ANSWER_INVALID lands on its field; the step is handed over. axe-core runs in the frame.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { InMemoryTransport, type JSONRPCMessage, type McpServer } from '@modelcontextprotocol/server';
import { chromium, type Browser, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { STEP_APP_URI } from '../../src/operations/platform/step-meta.js';
import { ENGINES } from '../engines.js';
import type { TrailView } from '../../src/services/trails/shapes.js';
import { silentLogger } from '../harness.js';
import { ok, startHostileServer, type HostileServer } from '../hostile/harness.js';
import { seriousViolations } from './axe.js';
import { buildWorld, type World } from './world.js';

const CHROMIUM = process.env.WAYMARK_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`test/browser: SKIPPED, no Chromium at ${CHROMIUM} (install Debian's chromium, or set WAYMARK_CHROMIUM)`);
const ROOT = new URL('../../', import.meta.url).pathname;
const DOCS = new URL('../../docs/', import.meta.url).pathname;

let browser: Browser;
let hostScript: string;
/** The step form app is built from the source as it is now, apart from dist/web; the server reads it there. */
const WEB_ROOT = mkdtempSync(join(tmpdir(), 'waymark-mcp-app-'));
beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  await buildWeb({ quiet: true, outDir: WEB_ROOT });
  process.env.WAYMARK_WEB_ROOT = WEB_ROOT;
  const bundled = await build({ absWorkingDir: ROOT, entryPoints: ['test/browser/mcp-host/host.ts'], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'warning' });
  hostScript = bundled.outputFiles[0].text;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  rmSync(WEB_ROOT, { recursive: true, force: true });
});

type Trail = TrailView;

for (const engine of ENGINES) {
  describe.skipIf(!HAVE_CHROMIUM)(`the step form as an MCP App (${engine})`, () => {
    let server: HostileServer;
    let world: World;
    let page: Page;
    let mcp: McpServer;
    let app: FrameLocator;
    /** Changes a submit_step_data call on its way to the server (to get past the form's own checks). */
    let tamper: ((message: Record<string, unknown>) => void) | null = null;
    const cspErrors: string[] = [];

    beforeAll(async () => {
      server = await startHostileServer(engine);
      world = await buildWorld(server);
      // The person's chat client: the server every MCP transport builds, authenticated as stdio does.
      mcp = createMcpServer(
        server.services,
        async () => {
          const actor = await server.services.auth.authenticate(world.personToken);
          if (!actor) return null;
          const { expiresAt: _e, ...rest } = actor;
          return rest;
        },
        silentLogger,
      );
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await mcp.connect(serverSide);
      const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
      page = await context.newPage();
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/.test(m.text())) cspErrors.push(m.text());
      });
      // In order, one at a time: the page gets the server's messages as the server sent them.
      let delivered = Promise.resolve();
      clientSide.onmessage = (message: JSONRPCMessage) => {
        delivered = delivered.then(() => page.evaluate((m) => (globalThis as unknown as { __fromServer(m: unknown): void }).__fromServer(m), message as unknown));
      };
      await clientSide.start();
      await page.exposeBinding('__toServer', async (_source, json: string) => {
        const message = JSON.parse(json) as Record<string, unknown>;
        const params = message.params as { name?: string } | undefined;
        if (tamper && message.method === 'tools/call' && params?.name === 'submit_step_data') tamper(message);
        await clientSide.send(message as JSONRPCMessage);
      });
      await page.setContent(`<!doctype html><html lang="en"><head><title>Test host</title><style>iframe { width: 100%; border: 1px solid #999; }</style></head><body><main><h1>A chat client</h1></main><script>${hostScript}</script></body></html>`);
      app = page.frameLocator('#app');
    }, 180_000);
    afterAll(async () => {
      await page?.context().close();
      await mcp?.close();
      await server?.close();
    });

    const frame = (): Frame => {
      const f = page.frames().find((x) => x !== page.mainFrame());
      if (!f) throw new Error('no app frame');
      return f;
    };

    test('the host finds the step form on get_trail, loads it sandboxed, and the form shows the step with its comments', async () => {
      await ok(server, 'comment_on_step', { trail_id: world.firstTrailId, text: '<b>Check</b> the logs first.' });
      const opened = (await page.evaluate(`host.open('get_trail', { trail_id: ${JSON.stringify(world.firstTrailId)} })`)) as { uri: string; mimeType: string; toolMeta: unknown; payloadInResult: boolean };
      expect(opened).toEqual({ uri: STEP_APP_URI, mimeType: 'text/html;profile=mcp-app', toolMeta: { ui: { resourceUri: STEP_APP_URI }, 'ui/resourceUri': STEP_APP_URI }, payloadInResult: true });
      expect(await page.locator('#app').getAttribute('sandbox')).toBe('allow-scripts allow-forms');
      await app.getByRole('heading', { level: 1, name: world.titles.start }).waitFor();
      expect(await app.getByText('Loading…').count()).toBe(0);
      // All ten element types, as the web app shows them.
      expect(await app.getByRole('checkbox', { name: 'Tests are green' }).count()).toBe(1);
      expect(await app.getByRole('radio', { name: 'High' }).count()).toBe(1);
      expect(await app.getByRole('combobox', { name: 'Region' }).count()).toBe(1);
      expect(await app.getByRole('combobox', { name: 'Reviewers' }).count()).toBe(1);
      expect(await app.getByLabel('Ship date').getAttribute('type')).toBe('date');
      expect(await app.getByRole('textbox', { name: 'Summary' }).count()).toBe(1);
      expect(await app.getByRole('link', { name: 'change log' }).count()).toBe(1);
      expect(await app.getByRole('link', { name: /Runbook/ }).count()).toBe(1);
      expect(await app.getByRole('checkbox', { name: 'I watched “Release demo”' }).count()).toBe(1);
      expect(await app.locator(`#n-${world.minted.summary} .rules`).textContent()).toBe('Required. 10 to 200 characters. Start with a capital letter.');
      // The step's comments, read-only, as text (issue 27).
      await app.getByRole('heading', { level: 2, name: 'Comments (1)' }).waitFor();
      expect(await app.locator('.comment-text').allTextContents()).toEqual(['<b>Check</b> the logs first.']);
      expect(await app.locator('.comment-text b').count()).toBe(0);
    });

    test('the server\'s ANSWER_INVALID lands on the field it names', async () => {
      await app.getByRole('textbox', { name: 'Summary' }).fill('A long enough summary');
      tamper = (message) => {
        const args = (message.params as { arguments: { data: Array<{ element_id: string; value: { value: unknown } }> } }).arguments;
        for (const a of args.data) if (a.element_id === world.minted.summary) a.value.value = 'X'.repeat(201);
      };
      await app.getByRole('button', { name: 'Save answers' }).click();
      const errors = app.locator(`#n-${world.minted.summary} .field-error`);
      await expect.poll(() => errors.allTextContents()).toEqual(['✖ Start with a capital letter (at most 200 characters, got 201)']);
      tamper = null;
      expect(await app.getByRole('textbox', { name: 'Summary' }).getAttribute('aria-invalid')).toBe('true');
      const stored = await ok(server, 'get_trail', { trail_id: world.firstTrailId }, world.personToken);
      expect((stored as unknown as Trail).current_step?.answers).toEqual([]);
    });

    test('a person answers every element type; the answers are stored and the trail moves on', async () => {
      await app.getByRole('textbox', { name: 'Summary' }).fill('Ready: all checks done');
      await app.getByRole('checkbox', { name: 'Tests are green' }).check();
      await app.getByRole('radio', { name: 'High' }).check();
      await app.getByRole('combobox', { name: 'Region' }).selectOption({ label: 'Europe' });
      const reviewers = app.getByRole('combobox', { name: 'Reviewers' });
      await reviewers.focus();
      await page.keyboard.type('gra');
      await page.keyboard.press('Enter');
      await app.getByLabel('Ship date').fill('2026-12-01');
      // Links record the click and open through the host (ui/open-link), not in the sandboxed frame.
      await app.getByRole('link', { name: 'change log' }).click();
      await app.getByRole('link', { name: /Runbook/ }).click();
      await expect.poll(() => page.evaluate('host.openedLinks')).toEqual(['https://example.com/changes', 'https://example.com/runbook']);
      await app.getByRole('checkbox', { name: 'I watched “Release demo”' }).check();
      const { serious, all } = await seriousViolations(frame());
      console.log(`axe step form app: ${serious.length} serious/critical; others: ${all.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`);
      expect(serious).toEqual([]);
      if (engine === 'sqlite') {
        mkdirSync(DOCS, { recursive: true });
        // The whole frame on screen at once: a full-page capture leaves a sandboxed frame's off-screen part blank.
        await app.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
        const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
        await page.setViewportSize({ width: 900, height });
        await page.screenshot({ path: `${DOCS}mcp-app-step.png` });
        await page.setViewportSize({ width: 900, height: 900 });
      }
      await app.getByRole('button', { name: 'Save and continue' }).click();
      await app.getByRole('heading', { level: 1, name: world.titles.risk }).waitFor();
      expect(await app.locator('.notice[role=status]').textContent()).toBe(`Moved on to “${world.titles.risk}”.`);
      const trail = (await ok(server, 'get_trail', { trail_id: world.firstTrailId }, world.personToken)) as unknown as Trail;
      expect(trail.current_step?.bit_title).toBe(world.titles.risk);
      const m = world.minted;
      const answers = Object.fromEntries(trail.history[0].answers.map((a) => [a.element_id, [a.element_type, a.value]]));
      expect(answers).toEqual({
        [m.summary]: ['TextArea', 'Ready: all checks done'],
        [m.tests]: ['CheckListItem', true],
        [m.notes_written]: ['CheckListItem', true],
        [m.risk]: ['RadioButton', m.high],
        [m.region]: ['Dropdown', m.eu],
        [m.reviewers]: ['SearchableField', ['Grace']],
        [m.ship_date]: ['DatePicker', '2026-12-01'],
        [m.changes]: ['LinkInline', { clicked: true, url: 'https://example.com/changes' }],
        [m.runbook]: ['LinkBlock', { clicked: true, url: 'https://example.com/runbook' }],
        [m.demo]: ['Video', { played: true }],
      });
      expect(trail.history[0].answers.every((a) => a.answered_by === world.personId)).toBe(true);
      // The model is told what the person did, through the host.
      await expect.poll(() => page.evaluate('host.modelContext.length')).toBeGreaterThan(0);
    });

    test('the step is handed to a person through transfer_step', async () => {
      await app.getByText('Hand this step to a person').click();
      await app.getByRole('textbox', { name: 'Reason' }).fill('The release manager decides on high risk');
      await app.getByRole('button', { name: 'Hand over' }).click();
      await expect.poll(() => app.locator('.step-form .notice').textContent()).toBe('Handed to a person: The release manager decides on high risk');
      const trail = (await ok(server, 'get_trail', { trail_id: world.firstTrailId }, world.personToken)) as unknown as Trail;
      expect(trail.status).toBe('waiting_for_person');
    });

    test('the document itself loads nothing: the CSP refused only the bit\'s own embeds, which a host allows or not', () => {
      // The video and the iframe element of the step point at example.com: a host that declares no frame or
      // media domains blocks them, and the form around them works all the same (the tests above).
      expect(cspErrors.map((e) => /'(https:[^']+)'/.exec(e)?.[1] ?? e).sort()).toEqual(['https://example.com/', 'https://example.com/demo.mp4']);
    });
  });
}
