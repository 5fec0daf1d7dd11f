/**
 * Builds the web app (web/) into dist/web: ES modules with hashed names (served with a long cache), split so
 * that every page but the inbox loads on demand, and an index.html without inline scripts. Prints the weight
 * of every file and fails when the inbox's first load (the entry and the chunks it imports statically, with
 * the stylesheet) is over the budget of issue "People answer their steps in the Waymark web app".
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildStepApp } from './build-step-app.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_OUT = join(ROOT, 'dist', 'web');
/** Where `waymark serve` mounts dist/web. */
export const APP_PATH = '/app/';
/** First load of the inbox, JavaScript gzipped (the bound). */
export const FIRST_LOAD_BUDGET = 150 * 1024;

export interface WebWeights {
  files: Array<{ file: string; bytes: number; gzip: number }>;
  /** What each chunk loaded on demand adds to the first load (its static imports included), gzipped. */
  onDemand: Array<{ file: string; gzip: number }>;
  /** The entry and its static imports, gzipped. */
  firstLoadJs: number;
  /** The step form's MCP App: one self-contained document (scripts/build-step-app.ts). */
  stepApp: { file: string; bytes: number; gzip: number };
  firstLoadCss: number;
  entry: string;
  stylesheet: string | null;
}

const gzipSize = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

/** An output and every chunk it reaches through static imports. */
function firstLoad(meta: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of meta.outputs[file]?.imports ?? []) if (imp.kind === 'import-statement') stack.push(imp.path);
  }
  return [...seen];
}

function indexHtml(entry: string, stylesheet: string | null, preload: string[]): string {
  const links = [
    ...(stylesheet ? [`<link rel="stylesheet" href="${APP_PATH}${stylesheet}">`] : []),
    ...preload.map((p) => `<link rel="modulepreload" href="${APP_PATH}${p}">`),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waymark</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${links.join('\n')}
<script type="module" src="${APP_PATH}${entry}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading…</p></div>
<noscript>The Waymark app needs JavaScript.</noscript>
</body>
</html>
`;
}

/**
 * The element definitions the step form shares with the server are written with zod, whose namespace
 * re-exports every locale's messages (260 KB). The app shows its own sentences and zod's English ones only,
 * so the locale index resolves to English alone.
 */
export const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'/node_modules/zod/'}`) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
};

export async function buildWeb(options: { quiet?: boolean; outDir?: string } = {}): Promise<WebWeights> {
  const out = options.outDir ?? WEB_OUT;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { main: 'web/main.tsx' },
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    outdir: out,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    minify: true,
    metafile: true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: 'web/tsconfig.json',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [zodEnglishOnly],
    logLevel: 'warning',
  });
  const meta = result.metafile;
  const rel = (p: string) => relative(relative(ROOT, out), p);
  const entryOut = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === 'web/main.tsx' && o.endsWith('.js'));
  if (!entryOut) throw new Error('esbuild produced no entry for web/main.tsx');
  const cssOut = meta.outputs[entryOut].cssBundle ?? null;
  const first = firstLoad(meta, entryOut);
  const files = Object.keys(meta.outputs)
    .filter((o) => !o.endsWith('.map'))
    .map((o) => ({ file: rel(o), bytes: meta.outputs[o].bytes, gzip: gzipSize(join(ROOT, o)) }))
    .sort((a, b) => b.gzip - a.gzip);
  const firstLoadJs = first.reduce((sum, o) => sum + gzipSize(join(ROOT, o)), 0);
  const firstLoadCss = cssOut ? gzipSize(join(ROOT, cssOut)) : 0;
  const entry = rel(entryOut);
  const stylesheet = cssOut ? rel(cssOut) : null;
  writeFileSync(join(out, 'index.html'), indexHtml(entry, stylesheet, first.filter((o) => o !== entryOut).map(rel)));
  const lazy = new Set(Object.values(meta.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)));
  const onDemand = [...lazy]
    .map((o) => ({ file: rel(o), gzip: firstLoad(meta, o).filter((f) => !first.includes(f)).reduce((sum, f) => sum + gzipSize(join(ROOT, f)), 0) }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const stepApp = await buildStepApp(out, [zodEnglishOnly]);
  const weights: WebWeights = { files, onDemand, firstLoadJs, firstLoadCss, entry, stylesheet, stepApp };
  if (!options.quiet) printWeights(weights, first.map(rel));
  return weights;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function printWeights(w: WebWeights, first: string[]): void {
  const lines = ['dist/web, gzip -9:', '  inbox first load:'];
  for (const f of w.files.filter((f) => first.includes(f.file) || f.file === w.stylesheet)) lines.push(`    ${f.file.padEnd(44)} ${kb(f.gzip).padStart(9)}`);
  lines.push('  loaded on demand (what each adds to the first load, its own imports included):');
  for (const d of w.onDemand) lines.push(`    ${d.file.padEnd(44)} ${kb(d.gzip).padStart(9)}`);
  const total = w.files.reduce((sum, f) => sum + f.gzip, 0);
  lines.push(`  all ${w.files.length} files: ${kb(total)}`);
  lines.push(`the step form's MCP App, ${w.stepApp.file} (one document, everything inline): ${kb(w.stepApp.bytes)}, ${kb(w.stepApp.gzip)} gzipped`);
  lines.push(`inbox first load: ${kb(w.firstLoadJs)} JavaScript + ${kb(w.firstLoadCss)} CSS gzipped (budget ${kb(FIRST_LOAD_BUDGET)} JavaScript)`);
  lines.push(`heaviest page (the first load and its largest part loaded on demand): ${kb(heaviestPage(w))} JavaScript gzipped (budget ${kb(FIRST_LOAD_BUDGET)})`);
  process.stdout.write(lines.join('\n') + '\n');
}

/** What the heaviest page makes a browser fetch: the first load and the largest part loaded on demand (the flow page drew with Mermaid's 2.3 MB until issue 28). */
export function heaviestPage(w: WebWeights): number {
  return w.firstLoadJs + Math.max(0, ...w.onDemand.map((d) => d.gzip));
}

/** Throws when the inbox's first load, or any page's, is over the budget. */
export function assertBudget(weights: WebWeights, budget = FIRST_LOAD_BUDGET): void {
  if (weights.firstLoadJs > budget) {
    throw new Error(`build:web FAILED: the inbox's first load is ${kb(weights.firstLoadJs)} of JavaScript gzipped, over the ${kb(budget)} budget`);
  }
  if (heaviestPage(weights) > budget) {
    throw new Error(`build:web FAILED: a page loads ${kb(heaviestPage(weights))} of JavaScript gzipped, over the ${kb(budget)} budget`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    assertBudget(await buildWeb());
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
