import { z } from 'zod';
import { defineTool } from '../tool.js';
import { contentFormat, lastModifiedIgnored, referenceAbstract, referenceCategories, referenceContent, referenceId, referenceTitle, referenceWritten } from './reference-schemas.js';

export const updateReferenceTool = defineTool({
  name: 'update_reference',
  title: 'Update a reference',
  description: [
    'Changes a reference. Omitted fields stay unchanged; reference_categories replaces the whole list; reference_content replaces the whole body (an abstract the server derived follows it, one you wrote stays).',
    'is_active:false archives the reference, refused with REFERENCE_IN_USE (details.bit_ids) while a bit links it: unlink it first (unlink_reference).',
    'An archived reference cannot be un-archived: is_active:true on it is REFERENCE_UNARCHIVE_UNSUPPORTED; on an active one it changes nothing.',
    'Errors: VALIDATION_ERROR, REFERENCE_NOT_FOUND, FORBIDDEN, INTERACTIVE_ELEMENT_NOT_ALLOWED, BODY_TOO_LARGE, REFERENCE_IN_USE, REFERENCE_UNARCHIVE_UNSUPPORTED.',
  ].join(' '),
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    reference_id: referenceId,
    reference_title: referenceTitle.optional(),
    reference_abstract: referenceAbstract.nullable().optional(),
    reference_categories: referenceCategories.optional(),
    reference_content: referenceContent.optional(),
    content_format: contentFormat.optional(),
    is_active: z.boolean().optional().describe('false archives (while no bit links it); true is refused on an archived reference.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: referenceWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, content_format: _slate, ...input }) => services.references.update(actor, input),
});
