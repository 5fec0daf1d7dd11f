import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { referenceSearchPageShape } from '../../services/references/shapes.js';
import { defineOperation } from '../operation.js';
import { cursor, uuid } from '../common-schemas.js';

export const searchReferencesTool = defineOperation({
  name: 'search_references',
  title: 'Search references',
  description:
    'Full-text search of the References Library (title, abstract, body), best match first. Cite a result in a bit body as [[ref:<reference_id>|<label>]].',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  rest: { method: 'get', path: '/references/search', operationId: 'searchReferences' },
  input: z.strictObject({
    query: z.string().max(LIMITS.searchQueryLength).describe('Plain words (all must match, stemmed) and "quoted phrases"; no operators, any text is safe.'),
    scope_id: uuid.nullable().optional().describe('null: account level only; omitted: all.'),
    categories: z.array(z.string().min(1).max(LIMITS.categoryLength)).max(LIMITS.categories).optional().describe('Any of them (exact match).'),
    include_archived: z.boolean().optional().describe('Default false.'),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Default ${LIMITS.defaultSearchLimit}.`),
    cursor: cursor.optional().describe('next_cursor of the previous page, with the same query and filters.'),
  }),
  output: referenceSearchPageShape,
  run: ({ actor, services }, input) => services.references.search(actor, input),
});
