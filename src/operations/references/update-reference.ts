import { z } from 'zod';
import { defineOperation, errorCode } from '../operation.js';
import { contentFormat, lastModifiedIgnored, referenceAbstractOfUpdate, referenceCategoriesReplaced, referenceContentReplaced, referenceId, referenceTitle, referenceWritten } from './reference-schemas.js';

export const updateReferenceTool = defineOperation({
  name: 'update_reference',
  title: 'Update a reference',
  description:
    `Changes a reference; omitted fields stay. A derived abstract follows a new reference_content; one you wrote stays. is_active false archives it, for good, unless a bit links it (${errorCode('REFERENCE_IN_USE')}: unlink_reference first).`,
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    reference_id: referenceId,
    reference_title: referenceTitle.optional(),
    reference_abstract: referenceAbstractOfUpdate.nullable().optional(),
    reference_categories: referenceCategoriesReplaced.optional(),
    reference_content: referenceContentReplaced.optional(),
    content_format: contentFormat.optional(),
    is_active: z.boolean().optional().describe('false archives it.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: referenceWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, content_format: _slate, ...input }) => services.references.update(actor, input),
});
