import { z } from 'zod';
import { LIMITS } from '../../content/limits.js';
import { defineTool } from '../tool.js';
import { uuid } from './common-schemas.js';
import { contentFormat, referenceAbstract, referenceCategories, referenceContent, referenceTitle, referenceWritten } from './reference-schemas.js';

export const createReferenceTool = defineTool({
  name: 'create_reference',
  title: 'Create a reference',
  description: [
    'Adds a record to the References Library: a non-interactive rich-text body that bits can link (link_reference) or cite in their body as [[ref:<reference_id>|<label>]].',
    `Rules: reference_title non-empty, at most ${LIMITS.title} chars; reference_content a Slate node array (required; no interactive elements); content_format only "slate";`,
    `reference_abstract at most ${LIMITS.referenceAbstract} chars, derived from the body text (its first sentences, about 500 chars) when omitted; reference_categories at most ${LIMITS.categories} of at most ${LIMITS.categoryLength} chars;`,
    'scope_id optional (omitted = account level). You are recorded as the author.',
    'Errors: VALIDATION_ERROR (also a link or media url not http, https, mailto or relative, and nesting too deep), INTERACTIVE_ELEMENT_NOT_ALLOWED, BODY_TOO_LARGE, SCOPE_NOT_FOUND, FORBIDDEN.',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    reference_title: referenceTitle,
    reference_content: referenceContent,
    content_format: contentFormat.optional(),
    reference_abstract: referenceAbstract.optional(),
    reference_categories: referenceCategories.optional(),
    scope_id: uuid.nullable().optional().describe('The scope the reference belongs to; omitted (or null) means account level. Only bits of the same scope can link or cite it.'),
  }),
  output: referenceWritten,
  run: ({ actor, services }, { content_format: _slate, ...input }) => services.references.create(actor, input),
});
