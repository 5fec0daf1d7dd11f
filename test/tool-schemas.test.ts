/**
 * A snapshot of every tool's tools/list entry (like github-mcp-server's __toolsnaps__): an accidental
 * change to a name, schema, annotation or description fails here. After an intended change, run
 * `npx vitest run test/tool-schemas.test.ts -u` and review the diff.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('sqlite');
});
afterAll(async () => h.close());

it('tools/list matches the snapshot', async () => {
  const { tools } = await h.owner.client.client.listTools();
  for (const tool of tools) {
    await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__toolsnaps__/${tool.name}.json`);
  }
});
