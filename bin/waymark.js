#!/usr/bin/env node
// The waymark command. The sources are TypeScript; tsx loads them without a build step, so that
// `npm ci && npm start` is all a fresh checkout needs.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
if (code !== 0 || !['serve', 'stdio'].includes(process.argv[2] ?? '')) process.exitCode = code;
