/**
 * Bundles the compiled server (dist/server, from tsc) into a few ES modules in dist/bundle: what
 * `bin/waymark.js` runs. Node loads a module per file, and the server's imports are over a thousand files
 * (kysely alone is 280): one file per chunk takes `waymark stdio` from launch to its answer to `initialize`
 * in about 290 ms instead of 510 (bench/start.ts), which a desktop client pays on every launch.
 *
 * The worker threads' modules (the conversion task, the search reader, the WAL checkpointer) are entries of their own beside
 * main.js, where the pools look for them. Packages that load files of their own at run time (native
 * addons, worker scripts, pino's transports) or only for `serve` stay in node_modules.
 */
import { build } from 'esbuild';
import { existsSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = join(ROOT, 'dist', 'server');
export const BUNDLE_OUT = join(ROOT, 'dist', 'bundle');

export async function bundleServer(): Promise<void> {
  // tsc, which ran just before, leaves its build info alone when no output changed (sources touched but not
  // edited, a checkout switched back): bin/waymark.js would then find sources newer than the compilation and run
  // them through tsx on every launch. The compilation is current as of now.
  const buildInfo = join(SERVER, '.tsbuildinfo');
  if (existsSync(buildInfo)) utimesSync(buildInfo, new Date(), new Date());
  rmSync(BUNDLE_OUT, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: join(SERVER, 'cli', 'main.js'),
      'convert-task': join(SERVER, 'services', 'convert', 'task.js'),
      'sqlite-read-task': join(SERVER, 'store', 'dialects', 'sqlite-read-task.js'),
      'sqlite-checkpoint-task': join(SERVER, 'store', 'dialects', 'sqlite-checkpoint-task.js'),
    },
    outdir: BUNDLE_OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    external: ['better-sqlite3', 'pg', 'piscina', 'pino', 'oidc-provider', 'express', 'cookie-parser', 'csrf-csrf', 'tsx', 'tsx/*'],
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as waymarkCreateRequire } from 'node:module'; const require = waymarkCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

await bundleServer();
