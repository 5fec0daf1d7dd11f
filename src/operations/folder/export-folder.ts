import { z } from 'zod';
import { exportedShape } from '../../services/folder/shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

/** Issue 30: a flow, a scope or the account level as a folder's files, inline (the CLI writes them to disk). */
export const exportFolderTool = defineOperation({
  name: 'export_folder',
  title: 'Export as files',
  description: 'A flow with the bits it reaches, or a scope\'s (or the account level\'s) bits, flows and references, as a folder of markdown and YAML files to keep in git; import_folder reads it back.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/export', operationId: 'exportFolder' },
  input: z.strictObject({
    flow_id: recordId().optional(),
    scope_id: recordId().nullable().optional().describe('Without flow_id; omit for account level.'),
  }),
  output: exportedShape,
  run: ({ actor, services }, input) => services.folderExport.exportInline(actor, input),
});
