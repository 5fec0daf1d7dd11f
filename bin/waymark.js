#!/usr/bin/env node
// The waymark command. `npm ci` compiles the TypeScript sources to dist/server (the `prepare` script), and
// that JavaScript is what runs: no compiler at run time. A checkout whose sources changed since the last
// build (a developer editing src/) runs the sources through tsx instead, so it never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const built = new URL('dist/server/cli/main.js', root);
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

function builtIsCurrent() {
  if (!existsSync(built) || !existsSync(buildInfo)) return false;
  return newest(new URL('src', root).pathname) <= statSync(buildInfo).mtimeMs;
}

let main;
if (builtIsCurrent()) {
  ({ main } = await import(built.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve', 'stdio'].includes(process.argv[2] ?? '')) process.exitCode = code;
