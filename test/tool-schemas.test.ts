/**
 * A snapshot of every tool's tools/list entry (like github-mcp-server's __toolsnaps__): an accidental
 * change to a name, schema, annotation or description fails here. One test per tool, so a mismatch in one
 * does not hide the others; a snapshot file whose tool is gone fails too. After an intended change, run
 * `npx vitest run --project main test/tool-schemas.test.ts -u` and review the diff (delete an orphan by hand).
 */
import { readdirSync } from 'node:fs';
import type { Tool as ListedTool } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { allTools } from '../src/operations/registry.js';
import { startHarness, type Harness } from './harness.js';

const SNAPSHOTS = new URL('./__toolsnaps__/', import.meta.url);
/** The registry's names, known when the tests are collected; the entries themselves come from tools/list. */
const NAMES = allTools().map((tool) => tool.name);

let h: Harness;
let listed: Map<string, ListedTool>;
beforeAll(async () => {
  h = await startHarness('sqlite');
  const { tools } = await h.owner.client.client.listTools();
  listed = new Map(tools.map((tool) => [tool.name, tool]));
});
afterAll(async () => h.close());

describe('tools/list matches the snapshot', () => {
  it.each(NAMES)('%s', async (name) => {
    const tool = listed.get(name);
    expect(tool, `${name} is in the registry but not in tools/list`).toBeDefined();
    await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(`./__toolsnaps__/${name}.json`);
  });
});

it('lists exactly the registry, and every snapshot file belongs to a tool', () => {
  expect([...listed.keys()]).toEqual(NAMES);
  const orphans = readdirSync(SNAPSHOTS)
    .filter((file) => !NAMES.includes(file.replace(/\.json$/, '')))
    .map((file) => `test/__toolsnaps__/${file}`);
  expect(orphans, 'snapshots of tools that no longer exist: delete them').toEqual([]);
});

/**
 * Descriptions do not copy the error catalogue (issues 13 and 15): describe_platform lists every code once,
 * and a tool names a code only where the agent must know a refusal up front (errorCode() in its declaration).
 */
it('descriptions name only codes of the catalogue, and carry no list of them', () => {
  const problems: string[] = [];
  for (const [name, tool] of listed) {
    const text = JSON.stringify({ description: tool.description, inputSchema: tool.inputSchema });
    if (/Errors?:/.test(text)) problems.push(`${name}: an "Errors:" list`);
    for (const code of text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) {
      if (!(code in ERROR_CODES)) problems.push(`${name}: ${code} is not an error code`);
    }
  }
  expect(problems).toEqual([]);
});
