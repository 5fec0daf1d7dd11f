import { z } from 'zod';
import { LINK_ACCESS } from '../../services/references/references.service.js';
import { defineOperation } from '../operation.js';
import { bitId, displayLabel, lastModifiedIgnored, linkWritten, referenceId } from './reference-schemas.js';

export const linkReferenceTool = defineOperation({
  name: 'link_reference',
  title: 'Link a reference to a bit',
  description:
    'Adds a reference to a bit\'s list of linked references (shown on the step). Both active, in the same scope, the bit yours to edit.',
  flags: { W: true, D: false, I: false },
  access: { ...LINK_ACCESS, afterLookup: true },
  input: z.strictObject({
    bit_id: bitId,
    reference_id: referenceId,
    display_label: displayLabel.optional(),
    position: z.number().int().min(0).optional().describe('Zero-based index to insert at; default appends.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: linkWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.references.link(actor, input),
});
