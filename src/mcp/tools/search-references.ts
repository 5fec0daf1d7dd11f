import { z } from 'zod';
import { LIMITS } from '../../content/limits.js';
import { defineTool } from '../tool.js';
import { cursor, uuid } from './common-schemas.js';

export const searchReferencesTool = defineTool({
  name: 'search_references',
  title: 'Search references',
  description: [
    `Full-text search of the References Library over title, abstract and body text (its first ${LIMITS.searchableReferenceChars} characters), best match first (a title match weighs most, then the abstract, then the body).`,
    'query: plain words (all must match, English stemming, so "approvals" finds "approval") and "quoted phrases" (the words adjacent, in order); no operators, and any text is safe to send.',
    'Filters: scope_id (null = account level only), categories (any of them), include_archived (default false). You see your account\'s references of your scope and of the account level.',
    `Pages: limit 1 to ${LIMITS.pageSize} (default ${LIMITS.defaultSearchLimit}); pass next_cursor back as cursor, with the same query and filters, for the next page; null means no more.`,
    'Each result has a snippet with matched words marked **like this**; cite a result in a bit body as [[ref:<reference_id>|<label>]].',
    `Errors: VALIDATION_ERROR (also a cursor from another search), SCOPE_NOT_FOUND; TOO_MANY_REQUESTS when your account already runs ${LIMITS.concurrentSearchesPerAccount} searches and ${LIMITS.queuedSearchesPerAccount} more wait (retry when one has answered); QUERY_TIMEOUT when a search runs too long (add words or filters).`,
  ].join(' '),
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({
    query: z.string().max(LIMITS.searchQueryLength).describe(`Plain words and "quoted phrases"; at most ${LIMITS.searchQueryLength} characters. A query of only stop words (the, of, …) finds nothing.`),
    scope_id: uuid.nullable().optional().describe('Only this scope\'s references; null for account-level references only; omitted for all you can see.'),
    categories: z.array(z.string().min(1).max(LIMITS.categoryLength)).max(LIMITS.categories).optional().describe('Only references carrying at least one of these categories (exact match).'),
    include_archived: z.boolean().optional().describe('Also return archived references (default false).'),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Results per page, 1 to ${LIMITS.pageSize}; default ${LIMITS.defaultSearchLimit}.`),
    cursor: cursor.optional().describe('next_cursor of the previous page of the same search.'),
  }),
  output: z.object({
    results: z.array(
      z.object({
        reference_id: z.string(),
        reference_title: z.string(),
        reference_abstract: z.string().nullable(),
        reference_categories: z.array(z.string()),
        scope_id: z.string().nullable(),
        is_active: z.boolean(),
        snippet: z.string().describe(`An excerpt of the body text's first ${LIMITS.snippetWindowChars} characters with the matched words marked **…**.`),
        score: z.number().describe('Relevance, higher is better; comparable only within one search.'),
      }),
    ),
    next_cursor: z.string().nullable(),
  }),
  run: ({ actor, services }, input) => services.references.search(actor, input),
});
