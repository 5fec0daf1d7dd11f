import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { importPlanShape } from '../../services/folder/shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

/** Issue 30: a folder export_folder wrote (and people edited) into a scope or the account level, all or nothing. */
export const importFolderTool = defineOperation({
  name: 'import_folder',
  title: 'Import files',
  description: 'Creates or updates the bits, flows and references of an export_folder folder, all or nothing; problems name file and line. dry_run: the plan only. prune: archive what has no file.',
  flags: { W: true, D: true, I: true },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'post', path: '/import', operationId: 'importFolder' },
  input: z.strictObject({
    files: z.array(z.strictObject({ path: z.string().max(LIMITS.folderPathChars), content: z.string() })).max(LIMITS.folderFiles),
    scope_id: recordId().nullable().optional().describe('Omit for account level.'),
    dry_run: z.boolean().optional(),
    prune: z.boolean().optional(),
  }),
  output: importPlanShape,
  run: ({ actor, services }, input) => services.folderImport.import(actor, input),
});
