/**
 * What export and import answer (issue 30), as zod schemas: each written once, here, and both the services' types
 * and the output schemas of export_folder and import_folder.
 */
import { z } from 'zod';

export const folderFileShape = z.object({
  path: z.string().describe('Relative to the folder, with / between folders.'),
  content: z.string(),
});
export type FolderFile = z.infer<typeof folderFileShape>;

export const exportedShape = z.object({
  files: z.array(folderFileShape),
  /** Records left out, each with why (a flow whose start bit is archived). */
  left_out: z.array(z.string()),
});
export type Exported = z.infer<typeof exportedShape>;

const names = z.array(z.string());

/** What an import does, or would do (dry run): records by their file, connections as `source.md → target.md`. */
export const importPlanShape = z.object({
  dry_run: z.boolean(),
  bits: z.object({ added: names, changed: names, archived: names, unchanged: z.number().int() }),
  references: z.object({ added: names, changed: names, archived: names, unchanged: z.number().int() }),
  flows: z.object({ added: names, changed: names, unchanged: z.number().int() }),
  connections: z.object({ added: names, removed: names }),
  /** Whether anything was (or, on a dry run, would be) written. */
  changed: z.boolean(),
});
export type ImportPlan = z.infer<typeof importPlanShape>;
