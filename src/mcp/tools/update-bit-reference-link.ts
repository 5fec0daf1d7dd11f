import { z } from 'zod';
import { LINK_ACCESS } from '../../services/references.service.js';
import { defineTool } from '../tool.js';
import { bitId, displayLabel, lastModifiedIgnored, linkWritten, referenceId } from './reference-schemas.js';

export const updateBitReferenceLinkTool = defineTool({
  name: 'update_bit_reference_link',
  title: 'Change a bit\'s reference link',
  description: [
    'Changes the label or the position of a bit\'s link to a reference. display_label (at most 128 chars; empty or null goes back to the reference title);',
    'position moves the link to that zero-based index (0 to count-1), the others closing up around it. Repeating the same call gives the same state. The bit must be active.',
    'Errors: BIT_NOT_FOUND, REFERENCE_NOT_FOUND, BIT_REFERENCE_LINK_NOT_FOUND (not linked: use link_reference), FORBIDDEN, BIT_ARCHIVED, VALIDATION_ERROR.',
  ].join(' '),
  flags: { W: true, D: true, I: true },
  access: { ...LINK_ACCESS, afterLookup: true },
  input: z.strictObject({
    bit_id: bitId,
    reference_id: referenceId,
    display_label: displayLabel.nullable().optional(),
    position: z.number().int().min(0).optional().describe('Zero-based index to move the link to, 0 to the bit\'s link count minus one.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: linkWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.references.updateLink(actor, input),
});
