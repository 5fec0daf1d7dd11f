import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { EVENT_RESOURCE_TYPES } from '../../store/enums.js';
import { historyPageShape } from '../../services/events/shapes.js';
import { isoTime, recordId } from '../common-schemas.js';
import { pageInput } from '../flows/flow-schemas.js';
import { defineOperation } from '../operation.js';

export const listHistoryTool = defineOperation({
  name: 'list_history',
  title: 'List changes',
  description: 'Accepted changes you can see, newest first: who (principal, token, app), what (operation, resource, revision), when. Filters combine; scope_id null: account level.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/history', operationId: 'listHistory' },
  input: z.strictObject({
    resource_type: z.enum(EVENT_RESOURCE_TYPES).optional(),
    resource_id: z.string().max(LIMITS.historyFilterLength).optional(),
    scope_id: recordId().nullable().optional(),
    principal_id: recordId().optional(),
    operation: z.string().max(LIMITS.historyFilterLength).optional(),
    since: isoTime.optional().describe('ISO time, at or after.'),
    until: isoTime.optional().describe('ISO time, before.'),
    ...pageInput,
  }),
  output: historyPageShape,
  run: ({ actor, services }, input) => services.history.list(actor, input),
});
