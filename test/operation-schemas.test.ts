/**
 * A snapshot of every operation that is not an MCP tool (the web app's routes, /me, sign-out, restore, the
 * connected-apps routes), as OpenAPI describes it: an accidental change to a path, method, access, input or answer
 * shape fails here, as test/tool-schemas.test.ts does for the tools. After an intended change, run
 * `npx vitest run --project main test/operation-schemas.test.ts --update` and review the diff.
 */
import { readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openApiDocument } from '../src/http/rest/openapi.js';
import type { RestRoute } from '../src/operations/operation.js';
import { REGISTRY } from '../src/operations/registry.js';

const SNAPSHOTS = new URL('./__opsnaps__/', import.meta.url);
const OPERATIONS = REGISTRY.operations.filter((o) => o.mcp === false);
const NAMES = OPERATIONS.map((o) => o.name);
const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };

it.each(OPERATIONS.map((o) => [o.name, o] as const))('%s', async (name, operation) => {
  const route = operation.rest as RestRoute;
  expect(route, `${name} is served by no door`).toBeDefined();
  const described = doc.paths[route.path.replace(/:([a-z_]+)/g, '{$1}')]?.[route.method];
  const snapshot = { name, access: operation.access, flags: operation.flags, sessionOnly: operation.sessionOnly ?? false, method: route.method, path: route.path, openapi: described };
  await expect(`${JSON.stringify(snapshot, null, 2)}\n`).toMatchFileSnapshot(`./__opsnaps__/${name}.json`);
});

it('every snapshot file belongs to an operation', () => {
  const orphans = readdirSync(SNAPSHOTS).filter((file) => !NAMES.includes(file.replace(/\.json$/, '')));
  expect(orphans, 'snapshots of operations that no longer exist: delete them').toEqual([]);
});
