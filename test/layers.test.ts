/**
 * A layer imports only the layers below it (STYLE.md, "Waymark's shape"): the ground floor (src/*.ts, src/limits/)
 * nothing above it; content and the store only the ground floor (neither the other); services those; the operations
 * services and below; the MCP door the operations and below; the HTTP doors the MCP layer and below; the CLI anything. Tests, which sit
 * beside the code and drive whole stacks, are left out; type-only imports count. And no module imports itself
 * at run time through others (a circle: which of its modules runs first depends on who imports it first).
 */
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, readSource, runtimeImportsOf, sourceFiles } from './imports.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Each layer and the layers it may import besides its own. */
const BELOW: Record<string, string[]> = {
  ground: [],
  content: ['ground'],
  store: ['ground'],
  services: ['ground', 'content', 'store'],
  operations: ['ground', 'content', 'store', 'services'],
  mcp: ['ground', 'content', 'store', 'services', 'operations'],
  http: ['ground', 'content', 'store', 'services', 'operations', 'mcp'],
  cli: ['ground', 'content', 'store', 'services', 'operations', 'mcp', 'http'],
};

/** The layer of a path under src/ (a top-level file, or src/limits/, is the ground floor); undefined outside src/. */
function layerOf(file: string): string | undefined {
  const path = relative(SRC, file);
  if (path.startsWith('..')) return undefined;
  const [top, ...rest] = path.split('/');
  return rest.length === 0 || top === 'limits' ? 'ground' : top;
}

describe('layers', () => {
  it('every directory of src/ is a layer', () => {
    const layers = new Set(sourceFiles(SRC).map(layerOf));
    expect([...layers].sort()).toEqual(Object.keys(BELOW).sort());
  });

  it('no module imports a layer above its own (or beside it)', () => {
    const upward = sourceFiles(SRC).flatMap((file) => {
      const layer = layerOf(file)!;
      return importsOf(readSource(file))
        .filter((spec) => spec.startsWith('.'))
        .filter((spec) => {
          const target = layerOf(resolve(dirname(file), spec));
          return target !== layer && !BELOW[layer]!.includes(target ?? 'outside src');
        })
        .map((spec) => `${relative(SRC, file)} (${layer}) imports ${spec}`);
    });
    expect(upward).toEqual([]);
  });

  it('no circle of run-time imports', () => {
    const files = sourceFiles(SRC);
    const known = new Set(files);
    const edges = new Map(
      files.map((file) => [
        file,
        runtimeImportsOf(readSource(file))
          .filter((spec) => spec.startsWith('.'))
          .map((spec) => resolve(dirname(file), spec).replace(/\.js$/, '.ts'))
          .map((target) => (known.has(target) ? target : target.replace(/\.ts$/, '.tsx')))
          .filter((target) => known.has(target)),
      ]),
    );
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) {
        if (state.get(next) === 'open') circles.push([...path.slice(path.indexOf(next)), file, next].map((f) => relative(SRC, f)).join(' > '));
        else if (!state.has(next)) visit(next, [...path, file]);
      }
      state.set(file, 'done');
    };
    for (const file of files) if (!state.has(file)) visit(file, []);
    expect(circles).toEqual([]);
  });
});
