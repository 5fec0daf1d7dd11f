/**
 * The folder format's documents are up to date (issue 30): the JSON Schemas in docs/export-format are the ones the
 * zod shapes give, examples/onboarding is what export writes for its hand-written source (scripts/export-format.ts;
 * run `npx tsx scripts/export-format.ts` after changing the format), and every file of the example passes its schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, generateExample, SCHEMA_DIR, schemaFiles } from '../scripts/export-format.js';
import { splitFrontMatter } from '../src/services/folder/yaml-text.js';

function readTree(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, readTree(dir, path));
    else out[path] = readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

describe('the folder format documents', () => {
  it('docs/export-format holds the JSON Schemas of the shapes the import checks files with', () => {
    expect(readTree(SCHEMA_DIR)).toEqual(Object.fromEntries(schemaFiles().map((f) => [f.path, f.content])));
  });

  it('examples/onboarding is what export writes', async () => {
    expect(readTree(EXAMPLE_DIR)).toEqual(Object.fromEntries((await generateExample()).map((f) => [f.path, f.content])));
  });

  it('every file of the example passes its JSON Schema', () => {
    const ajv = new Ajv2020.default({ strict: false });
    addFormats.default(ajv);
    const schema = (name: string) => ajv.compile(JSON.parse(readFileSync(join(SCHEMA_DIR, name), 'utf8')));
    const check = { bit: schema('bit.schema.json'), reference: schema('reference.schema.json'), flow: schema('flow.schema.json'), manifest: schema('manifest.schema.json') };
    const tree = readTree(EXAMPLE_DIR);
    const front = (path: string) => {
      const split = splitFrontMatter(path, tree[path]!);
      if ('code' in split) throw new Error(split.message);
      return parse(split.yaml) as unknown;
    };
    for (const path of Object.keys(tree)) {
      const [validate, value] = path === 'waymark.json' ? [check.manifest, JSON.parse(tree[path]!)] : path.startsWith('bits/') ? [check.bit, front(path)] : path.startsWith('references/') ? [check.reference, front(path)] : [check.flow, parse(tree[path]!)];
      expect(validate(value), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
