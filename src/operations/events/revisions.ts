/**
 * get_revision, diff_revisions and restore_revision (issue 26): a bit, flow or reference as it was, what changed
 * between two of its revisions (a flow, by default, since its approved version), and an old revision written again.
 */
import { z } from 'zod';
import { restoredRevisionShape, revisedTypeShape, revisionDiffShape, revisionViewShape } from '../../services/revisions/shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

const revisionNumber = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const target = { resource_type: revisedTypeShape, resource_id: recordId() };

export const getRevisionTool = defineOperation({
  name: 'get_revision',
  title: 'Get a revision',
  description: 'A bit, flow or reference exactly as it was at a revision (list_history lists them), answered as get_bit, get_flow or get_reference would.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/history/:resource_type/:resource_id/revisions/:revision', operationId: 'getRevision' },
  input: z.strictObject({ ...target, revision: revisionNumber, format: z.enum(['markdown', 'slate']).optional().describe('A bit\'s body; default markdown.') }),
  output: revisionViewShape,
  run: ({ actor, services }, input) => services.revisions.get(actor, input),
});

export const diffRevisionsTool = defineOperation({
  name: 'diff_revisions',
  title: 'Diff two revisions',
  description:
    'What changed between two revisions: a line diff of the markdown body, changed fields, elements and connections added, removed or changed. Defaults: to = latest, from = the one before; a flow from its approved version, with its bits\' changes.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/history/:resource_type/:resource_id/diff', operationId: 'diffRevisions' },
  input: z.strictObject({ ...target, from: revisionNumber.optional(), to: revisionNumber.optional() }),
  output: revisionDiffShape,
  run: ({ actor, services }, input) => services.revisions.diff(actor, input),
});

export const restoreRevisionTool = defineOperation({
  name: 'restore_revision',
  title: 'Restore a revision',
  description: 'Writes an old revision back as a new one through update_bit, update_flow or update_reference, whose rules and errors apply. History is kept.',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  rest: { method: 'post', path: '/history/:resource_type/:resource_id/revisions/:revision/restore', operationId: 'restoreRevision' },
  input: z.strictObject({ ...target, revision: revisionNumber }),
  output: restoredRevisionShape,
  run: ({ actor, services }, input) => services.revisions.restore(actor, input),
});
