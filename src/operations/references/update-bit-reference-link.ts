import { z } from 'zod';
import { LINK_ACCESS } from '../../services/references/references.service.js';
import { defineOperation } from '../operation.js';
import { bitId, displayLabel, lastModifiedIgnored, linkWritten, referenceId } from './reference-schemas.js';

export const updateBitReferenceLinkTool = defineOperation({
  name: 'update_bit_reference_link',
  title: 'Change a bit\'s reference link',
  description:
    'Changes the label or the position of a bit\'s link to a reference (the others close up around it). The bit must be active.',
  flags: { W: true, D: true, I: true },
  access: { ...LINK_ACCESS, afterLookup: true },
  input: z.strictObject({
    bit_id: bitId,
    reference_id: referenceId,
    display_label: displayLabel.nullable().optional(),
    position: z.number().int().min(0).optional().describe('Zero-based index to move the link to.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: linkWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.references.updateLink(actor, input),
});
