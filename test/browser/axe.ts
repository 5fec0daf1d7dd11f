/** axe-core in the page under test, run through the debugging protocol (the app's CSP forbids inline scripts). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Violations of serious or critical impact on the page as it stands (WCAG 2.x A and AA rules, best practices). */
export async function seriousViolations(page: Page | Frame): Promise<{ serious: AxeFinding[]; all: AxeFinding[] }> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page: this file is compiled without the DOM's types.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })))`)) as AxeFinding[];
  return { serious: violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), all: violations };
}
