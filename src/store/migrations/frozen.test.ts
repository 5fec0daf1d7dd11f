/**
 * Migrations are frozen: a migration imports only packages and its siblings here, never live code (dialects,
 * content, limits), whose later edits would change what an old migration does to a store that has not run it
 * yet (issue 25). What one needs of live code is copied into it, as 007 copies the search text cut.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf, readSource, sourceFiles } from '../../../test/imports.js';

const HERE = dirname(fileURLToPath(import.meta.url));

describe('migrations', () => {
  it('import nothing from outside src/store/migrations but packages', () => {
    const files = sourceFiles(HERE);
    const outside = files.flatMap((file) =>
      importsOf(readSource(file))
        .filter((spec) => spec.startsWith('.') && dirname(resolve(dirname(file), spec)) !== HERE)
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });
});
