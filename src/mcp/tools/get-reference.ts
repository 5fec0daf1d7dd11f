import { z } from 'zod';
import { defineTool } from '../tool.js';
import { referenceId } from './reference-schemas.js';

export const getReferenceTool = defineTool({
  name: 'get_reference',
  title: 'Get a reference',
  description:
    'Returns every field of a reference, reference_content as a Slate node array.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'read', permission: 'view' },
  input: z.strictObject({ reference_id: referenceId }),
  output: z.object({
    reference_id: z.string(),
    reference_title: z.string(),
    reference_abstract: z.string().nullable(),
    reference_content: z.array(z.record(z.string(), z.unknown())),
    content_format: z.literal('slate'),
    reference_categories: z.array(z.string()),
    scope_id: z.string().nullable(),
    is_active: z.boolean(),
    author_principal_id: z.string(),
    created_date_time_utc: z.string(),
    last_modified_date_time_utc: z.string(),
  }),
  run: ({ actor, services }, input) => services.references.get(actor, input.reference_id),
});
