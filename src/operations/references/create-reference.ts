import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { uuid } from '../common-schemas.js';
import { contentFormat, referenceAbstract, referenceCategories, referenceContent, referenceTitle, referenceWritten } from './reference-schemas.js';

export const createReferenceTool = defineOperation({
  name: 'create_reference',
  title: 'Create a reference',
  description:
    'Adds a record to the References Library: a rich-text body that bits link (link_reference) or cite in their body as [[ref:<reference_id>|<label>]].',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    reference_title: referenceTitle,
    reference_content: referenceContent,
    content_format: contentFormat.optional(),
    reference_abstract: referenceAbstract.optional(),
    reference_categories: referenceCategories.optional(),
    scope_id: uuid.nullable().optional().describe('Omitted or null: account level. Only bits of its scope can link or cite it.'),
  }),
  output: referenceWritten,
  run: ({ actor, services }, { content_format: _slate, ...input }) => services.references.create(actor, input),
});
