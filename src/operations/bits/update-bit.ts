import { z } from 'zod';
import { defineOperation, errorCode } from '../operation.js';
import { assigneeOrNull, bitAbstract, bitBodyReplaced, bitDescription, bitId, bitTitle, bitWritten, complexity, contentFormatOfUpdate, elementsEdited, expectedDurationOrNull, humanRequired } from './bit-schemas.js';
import { categoriesReplaced, lastModifiedIgnored, nodeRef } from '../common-schemas.js';

export const updateBitTool = defineOperation({
  name: 'update_bit',
  title: 'Update a bit',
  description:
    `Changes the given fields; omitted fields stay. bit_body replaces the whole body: in markdown, write back each element, link and media anchor and connection line's node= as get_bit returned them; a node left out is ${errorCode('BIT_CONTENT_LOSS')} unless remove_node_ids names it.`,
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    bit_id: bitId,
    bit_title: bitTitle.optional(),
    bit_abstract: bitAbstract.optional(),
    bit_description: bitDescription.optional(),
    bit_categories: categoriesReplaced.optional(),
    bit_body: bitBodyReplaced.optional(),
    content_format: contentFormatOfUpdate.optional(),
    complexity: complexity.optional(),
    elements: elementsEdited.optional(),
    human_required: humanRequired.optional(),
    assignee: assigneeOrNull.optional(),
    expected_duration: expectedDurationOrNull.optional(),
    remove_node_ids: z.array(nodeRef).optional().describe('Ids (labels where the id is null) of nodes bit_body drops on purpose.'),
    status: z.never({ error: 'status cannot be set through update_bit: use archive_bit (and the REST restore to undo it)' }).optional(),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: bitWritten,
  run: ({ actor, services }, input) => services.bits.update(actor, input),
});
