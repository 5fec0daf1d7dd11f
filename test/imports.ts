/** The modules source files import, read from their text: for the tests that hold the layers and the migrations apart. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every module a file names in an import, an export … from, or a dynamic import(); type-only imports included. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** The modules a file imports at run time: `import type` and `export type … from` left out. */
export function runtimeImportsOf(source: string): string[] {
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map((m) => (m[1] ?? m[2])!);
}

/** The TypeScript files under `dir`, tests (`*.test.ts`) left out. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

export function readSource(file: string): string {
  return readFileSync(file, 'utf8');
}
