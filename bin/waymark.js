#!/usr/bin/env node
// The waymark command. `npm ci` compiles the TypeScript sources to dist/server and bundles that into
// dist/bundle (the `prepare` script), and the bundle is what runs: no compiler at run time, and a few files to
// load instead of a thousand. A checkout whose sources changed since the last build (a developer editing src/)
// runs the sources through tsx instead, so it never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const bundled = new URL('dist/bundle/main.js', root);
const buildInfo = new URL('dist/server/.tsbuildinfo', root);

/** The newest modification time under a folder, in ms. */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** The bundle was made from the last compilation (`npm run build` does both), which is newer than every source. */
function builtIsCurrent() {
  if (!existsSync(bundled) || !existsSync(buildInfo)) return false;
  const compiled = statSync(buildInfo).mtimeMs;
  return statSync(bundled).mtimeMs >= compiled && newest(new URL('src', root).pathname) <= compiled;
}

let main;
if (builtIsCurrent()) {
  ({ main } = await import(bundled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve', 'stdio'].includes(process.argv[2] ?? '')) process.exitCode = code;
