/**
 * The folder format's documents (issue 30), generated so they cannot drift from the code:
 * - docs/export-format/*.schema.json: the JSON Schemas of a bit's and a reference's front matter, a reference's JSON
 *   form, a flow's file and the manifest, from the zod shapes the import checks files with (services/folder/format.ts);
 * - examples/onboarding/: a folder as export writes it. It is made by importing the hand-written folder below into
 *   an empty store and exporting it: files without ids take ids from their paths, and elements written with keys
 *   take ids derived from their file's, so the example comes out the same on every run.
 * `npx tsx scripts/export-format.ts` writes both; test/export-format.test.ts checks they are up to date.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { operatorActor } from '../src/services/actor.js';
import { formatSchemas } from '../src/services/folder/format.js';
import type { FolderFile } from '../src/services/folder/shapes.js';
import { createServices } from '../src/services/index.js';
import { openStore } from '../src/store/store.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_DIR = join(ROOT, 'docs/export-format');
export const EXAMPLE_DIR = join(ROOT, 'examples/onboarding');

/** The example as a person would write it by hand: no ids, elements named by keys. */
const HAND_WRITTEN: FolderFile[] = [
  { path: 'waymark.json', content: '{ "format": "waymark-folder", "version": 1, "contents": "all" }\n' },
  {
    path: 'references/handbook.md',
    content: `---
title: Employee handbook
abstract: How we work, in one page.
categories: [people]
---
## Hours

Core hours are **10:00 to 16:00**.

## Security

Lock your screen when you leave your desk.
`,
  },
  {
    path: 'bits/welcome.md',
    content: `---
title: Welcome
abstract: The first hour of the first day.
categories: [onboarding]
complexity: low
elements:
  - key: team
    type: dropdown
    props: { required: true }
    items:
      - { key: eng, value: engineering }
      - { key: ops, value: operations }
  - key: todo
    type: check-list
    items:
      - { key: badge, required: true }
      - { key: tour }
references:
  - { file: ../references/handbook.md, label: Read before lunch }
---
Welcome aboard! Read [[ref:../references/handbook.md|the handbook]] before lunch.

[dropdown: Your team](waymark-node:team)
- [Engineering](waymark-node:eng)
- [Operations](waymark-node:ops)

[check-list: Today](waymark-node:todo)
- [ ] [Collect your badge](waymark-node:badge)
- [ ] [Take the office tour](waymark-node:tour)

[Set up your laptop](bit-connection:laptop.md?when=team:eng)

[Get production access](bit-connection:access.md?when=team:ops)
`,
  },
  {
    path: 'bits/laptop.md',
    content: `---
title: Set up your laptop
complexity: medium
elements:
  - key: serial
    type: text-area
    props: { required: true, maxLength: 40 }
  - key: day
    type: date-picker
    props: { picker_type: date }
---
Follow the [setup guide](https://example.com/setup) and note what you got.

[text-area: Serial number](waymark-node:serial)

[date-picker: Day it arrived](waymark-node:day)

[Next](bit-connection:first-week.md)
`,
  },
  {
    path: 'bits/access.md',
    content: `---
title: Get production access
description: A person grants it; an agent hands this step over.
complexity: high
human_required: true
elements:
  - key: oncall
    type: radio-button
    items:
      - { key: yes }
      - { key: no }
---
Ask your lead for access to the production console.

[radio-button: Joining the on-call rota?](waymark-node:oncall)
- ( ) [Yes](waymark-node:yes)
- ( ) [Not yet](waymark-node:no)

[Next](bit-connection:first-week.md)
`,
  },
  {
    path: 'bits/first-week.md',
    content: `---
title: Your first week
---
Book a coffee with each person on your team.
`,
  },
  {
    path: 'flows/onboarding.yaml',
    content: `title: Onboarding
description: A new colleague's first week.
categories: [people]
priority: high
start_bit: ../bits/welcome.md
trail_context_schema:
  type: object
  properties:
    employee: { type: string }
    start_date: { type: string, format: date }
  required: [employee]
`,
  },
];

/** The example folder as export writes it, made from HAND_WRITTEN in an empty store. */
export async function generateExample(): Promise<FolderFile[]> {
  const dir = mkdtempSync(join(tmpdir(), 'waymark-example-'));
  const store = openStore({ dataDir: dir });
  try {
    await store.migrate();
    const services = createServices(store);
    const actor = operatorActor(await services.auth.createAccount('example'));
    await services.folderImport.import(actor, { files: HAND_WRITTEN });
    return (await services.folderExport.export(actor, {})).files;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function schemaFiles(): FolderFile[] {
  return Object.entries(formatSchemas()).map(([path, schema]) => ({ path, content: `${JSON.stringify(schema, null, 2)}\n` }));
}

function writeAll(dir: string, files: readonly FolderFile[]): void {
  rmSync(dir, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeAll(SCHEMA_DIR, schemaFiles());
  writeAll(EXAMPLE_DIR, await generateExample());
  console.log(`wrote ${SCHEMA_DIR} and ${EXAMPLE_DIR}`);
}
