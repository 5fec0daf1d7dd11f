/**
 * The README's table of tools is the registry's: every tool tools/list shows, with the capability,
 * permission and W/D/I flags it is declared with, in the same order. A tool added or changed without the
 * README following fails here (issue 17: cancel_trail was missing from the documentation's lists).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allTools } from '../src/operations/registry.js';

function capability(tool: ReturnType<typeof allTools>[number]): string {
  const { capability: kind } = tool.access;
  return kind === 'any' ? 'any valid token' : kind === 'read' ? 'read (or author)' : kind;
}

function toolsTable(): string {
  const rows = allTools().map((tool) => {
    const flags = (['W', 'D', 'I'] as const).filter((f) => tool.flags[f]).join(', ') || '—';
    return `| \`${tool.name}\` | ${capability(tool)} | ${tool.access.permission} | ${flags} |`;
  });
  return ['| tool | capability | permission | flags |', '|---|---|---|---|', ...rows].join('\n');
}

describe('README', () => {
  it('lists every tool of the registry with its access and flags', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(toolsTable());
  });
});
