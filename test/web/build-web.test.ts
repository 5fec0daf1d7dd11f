/** The web build (scripts/build-web.ts): hashed files, an index.html without inline script, the first-load budget. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBudget, buildWeb, FIRST_LOAD_BUDGET, heaviestPage, type WebWeights } from '../../scripts/build-web.js';
import { STEP_APP_FILE } from '../../src/mcp/apps/step-app.js';

describe('build:web', () => {
  const out = mkdtempSync(join(tmpdir(), 'waymark-web-'));
  let weights: WebWeights;
  beforeAll(async () => {
    weights = await buildWeb({ outDir: out, quiet: true });
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('index.html loads the hashed entry and stylesheet from /app/ and has no inline script', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => [m[1].trim(), m[2]])).toEqual([[`type="module" src="/app/${weights.entry}"`, '']]);
    expect(html).toContain(`<link rel="stylesheet" href="/app/${weights.stylesheet}">`);
    expect(html).not.toMatch(/\son[a-z]+=/);
  });

  test('every file but index.html and the step form\'s MCP App document carries a content hash in its name', () => {
    const names = [...readdirSync(out), ...readdirSync(join(out, 'chunks'))].filter((n) => n !== 'index.html' && n !== 'chunks' && n !== STEP_APP_FILE);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(name).toMatch(/-[A-Z0-9]{8}\.(js|css)$/);
  });

  test('the step form\'s MCP App is one document that loads nothing: one inline script, one inline stylesheet', () => {
    const html = readFileSync(join(out, STEP_APP_FILE), 'utf8');
    expect(weights.stepApp.file).toBe(STEP_APP_FILE);
    expect([...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1])).toEqual(['']);
    expect([...html.matchAll(/<style\b/g)]).toHaveLength(1);
    expect(html).not.toMatch(/<link\b|\bsrc=["']?(https?:|\/)/);
  });

  test('the inbox first load is inside the budget, and the build fails when it is not', () => {
    expect(weights.firstLoadJs).toBeGreaterThan(0);
    expect(weights.firstLoadJs).toBeLessThan(FIRST_LOAD_BUDGET);
    expect(() => assertBudget(weights)).not.toThrow();
    expect(() => assertBudget(weights, 1024)).toThrow(/over the 1\.0 KB budget/);
  });

  test('the pages load on demand, and every page with the flow picture among them is inside the budget (no Mermaid)', () => {
    const lazy = weights.onDemand.map((d) => d.file.replace(/-[A-Z0-9]{8}\.js$/, ''));
    expect(lazy).toEqual(expect.arrayContaining(['chunks/step', 'chunks/trail', 'chunks/start-trail', 'chunks/flow']));
    expect(lazy.some((f) => f.includes('mermaid'))).toBe(false);
    expect(heaviestPage(weights)).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
    const flowPage = weights.onDemand.find((d) => d.file.startsWith('chunks/flow-'));
    expect(weights.firstLoadJs + (flowPage?.gzip ?? Infinity)).toBeLessThan(40 * 1024);
  });
});
