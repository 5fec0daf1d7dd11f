import { defineConfig } from 'vitest/config';

/**
 * Two projects, run one after the other by `npm test`:
 * - `main`: every unit and integration test, two files at a time (the machine has two cores; each file
 *   opens its own store);
 * - `serial`: the tests that measure a real server while they attack it or drive it from a browser
 *   (test/hostile, test/browser), one file at a time, so no other test file's work lands in their timings.
 */
const SERIAL = ['test/hostile/**/*.test.ts', 'test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'main', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], exclude: [...SERIAL, '**/node_modules/**'] } },
      // A page that answers after a server round trip under a loaded machine may take more than expect.poll's
      // default second to show what it will: the browser tests wait up to 10 s for what a person would see.
      { extends: true, test: { name: 'serial', include: SERIAL, fileParallelism: false, maxWorkers: 1, expect: { poll: { timeout: 10_000 } } } },
    ],
  },
});
