import { z } from 'zod';
import { LINK_ACCESS } from '../../services/references.service.js';
import { defineTool } from '../tool.js';
import { bitId, displayLabel, lastModifiedIgnored, linkWritten, referenceId } from './reference-schemas.js';

export const linkReferenceTool = defineTool({
  name: 'link_reference',
  title: 'Link a reference to a bit',
  description: [
    'Adds a reference to a bit\'s list of linked references (shown as triggers on the step). The reference must be active and in the bit\'s scope; the bit must be active and yours to edit.',
    'display_label (at most 128 chars) replaces the reference title in the list; position inserts at that zero-based index (0 to the current count; default: append), shifting later links down.',
    'Errors: BIT_NOT_FOUND, REFERENCE_NOT_FOUND (not visible to you), FORBIDDEN (visible but not yours to change), BIT_ARCHIVED, REFERENCE_ARCHIVED, SCOPE_MISMATCH,',
    'DUPLICATE_REFERENCE_LINK (already linked: use update_bit_reference_link), VALIDATION_ERROR.',
  ].join(' '),
  flags: { W: true, D: false, I: false },
  access: { ...LINK_ACCESS, afterLookup: true },
  input: z.strictObject({
    bit_id: bitId,
    reference_id: referenceId,
    display_label: displayLabel.optional(),
    position: z.number().int().min(0).optional().describe('Zero-based index to insert at, 0 to the bit\'s current link count; default appends.'),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: linkWritten,
  run: ({ actor, services }, { last_modified_date_time_utc: _ignored, ...input }) => services.references.link(actor, input),
});
