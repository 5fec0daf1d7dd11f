/**
 * What every browser test file starts with, once: Debian's Chromium (or WAYMARK_CHROMIUM), skipped with a message
 * when it is missing; the web app built from the source as it is now, apart from dist/web (other test files build
 * too), into a folder of the file's own; and the axe check a page must pass.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildWeb } from '../../scripts/build-web.js';
import { seriousViolations } from './axe.js';

export const CHROMIUM = process.env.WAYMARK_CHROMIUM ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`test/browser: SKIPPED, no Chromium at ${CHROMIUM} (install Debian's chromium, or set WAYMARK_CHROMIUM)`);

export interface BrowserRun {
  /** The launched browser, once the file's beforeAll has run. */
  browser(): Browser;
  /** Where the app was built: the server's WAYMARK_WEB_ROOT. */
  webRoot: string;
}

/** Builds the app and launches Chromium for the calling test file (its beforeAll and afterAll). */
export function useBrowser(name: string): BrowserRun {
  let browser: Browser | undefined;
  const webRoot = mkdtempSync(join(tmpdir(), `waymark-${name}-`));
  beforeAll(async () => {
    if (!HAVE_CHROMIUM) return;
    await buildWeb({ quiet: true, outDir: webRoot });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });
  return {
    browser: () => {
      if (!browser) throw new Error('the browser is not launched yet (useBrowser runs in beforeAll)');
      return browser;
    },
    webRoot,
  };
}

/** No serious or critical axe finding on the page as it stands; every finding is printed. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const { serious, all } = await seriousViolations(page);
  console.log(`axe ${what}: ${serious.length} serious/critical; others: ${all.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`);
  expect(serious, `${what}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}
