/**
 * The Trails page's list (issue 28): every trail the caller may see, filtered and searched, a page at a time or as
 * a CSV download. Operations of the web app and REST, not MCP tools: list_trails is the agents' list.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { RUN_ACCESS } from '../../services/actor.js';
import { fileAnswerShape, trailSearchPageShape } from '../../services/trails/trail-search-shapes.js';
import { cursor, isoTime, recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';
import { TRAIL_STATUSES } from './trail-schemas.js';

/** The filters, defined once for the page and the download. */
const filters = {
  flow_id: recordId().optional(),
  status: z.array(z.enum(TRAIL_STATUSES)).max(TRAIL_STATUSES.length).optional().describe('Any of these statuses; repeat the query key for each.'),
  waiting_for_me: z
    .boolean()
    .optional()
    .describe('Only open trails whose current step waits for me: given to me, or (for a person) waiting for a person and given to no one in particular.'),
  started_by_id: recordId('Only trails this principal started.').optional(),
  started_since: isoTime.optional().describe('Started at or after this ISO time.'),
  started_until: isoTime.optional().describe('Started before this ISO time.'),
  q: z.string().max(LIMITS.trailSearchQueryLength).optional().describe('Text in the title or in a value of the trail context, any case.'),
  cursor: cursor.optional().describe('next_cursor of the previous page; omit for the first.'),
};

const WINDOW_TEXT = `A page examines at most ${LIMITS.trailSearchWindow} trails, newest change first; when it stops there before it is full, searched_back_to says how far back it looked and next_cursor continues.`;

export const searchTrailsOperation = defineOperation({
  name: 'search_trails',
  title: 'Find trails',
  description: `The trails you can see (as list_trails), newest change first, under every filter given: flow, statuses, waiting for me, who started them, when they started, and text in the title or the context. ${WINDOW_TEXT} Errors: FLOW_NOT_FOUND, VALIDATION_ERROR (a bad cursor).`,
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/trails/search', operationId: 'searchTrails' },
  mcp: false,
  input: z.strictObject({
    ...filters,
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, 1 to ${LIMITS.pageSize}; default ${LIMITS.defaultPageSize}.`),
  }),
  output: trailSearchPageShape,
  run: ({ actor, services }, input) => services.trailSearch.search(actor, input),
});

export const exportTrailsOperation = defineOperation({
  name: 'export_trails',
  title: 'Download trails as CSV',
  description: `The trails search_trails finds under the same filters, as CSV with a header row (trail id, title, flow, status, current step, who started it, started, last change; times in UTC), at most ${LIMITS.trailExportRows} of them, newest change first. Every cell is escaped for CSV, and one a spreadsheet would read as a formula (starting with = + - @) starts with an apostrophe. When there are more, the Link header (rel "next") names the request for the rest. Errors: FLOW_NOT_FOUND, VALIDATION_ERROR.`,
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/trails/export', operationId: 'exportTrails', file: { mediaType: 'text/csv', name: 'trails.csv' } },
  mcp: false,
  input: z.strictObject(filters),
  output: fileAnswerShape,
  run: ({ actor, services }, input) => services.trailSearch.csv(actor, input),
});
