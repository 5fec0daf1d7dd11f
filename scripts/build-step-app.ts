/**
 * Builds the step form's MCP App (issue 14, web/mcp-app) into one HTML document with its script and styles
 * inline: a chat client renders it in a sandboxed frame whose CSP allows no fetch, so nothing may be loaded
 * from anywhere. The server serves it as `ui://waymark/step` (src/mcp/apps/step-app.ts).
 */
import { build, type Plugin } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { STEP_APP_FILE } from '../src/mcp/apps/step-app.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Inline text in a <script> or <style>: its closing tag must not appear inside it. */
const inline = (text: string, tag: 'script' | 'style') => text.replace(new RegExp(`</(${tag})`, 'gi'), '<\\/$1');

export async function buildStepApp(outDir: string, plugins: Plugin[]): Promise<{ file: string; bytes: number; gzip: number }> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['web/mcp-app/main.tsx'],
    bundle: true,
    format: 'iife',
    target: 'es2022',
    platform: 'browser',
    outdir: 'mcp-app-out',
    write: false,
    minify: true,
    legalComments: 'none',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: 'web/tsconfig.json',
    // Images or fonts a stylesheet names travel inside it: the frame may fetch nothing.
    loader: { '.svg': 'dataurl', '.png': 'dataurl', '.woff2': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins,
    logLevel: 'warning',
  });
  const js = result.outputFiles.filter((f) => f.path.endsWith('.js')).map((f) => f.text).join('\n');
  const css = result.outputFiles.filter((f) => f.path.endsWith('.css')).map((f) => f.text).join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waymark step</title>
<style>${inline(css, 'style')}</style>
</head>
<body>
<main id="app"><p class="boot">Loading…</p></main>
<script>${inline(js, 'script')}</script>
</body>
</html>
`;
  const file = join(outDir, STEP_APP_FILE);
  writeFileSync(file, html);
  return { file: STEP_APP_FILE, bytes: Buffer.byteLength(html), gzip: gzipSync(html, { level: 9 }).length };
}
