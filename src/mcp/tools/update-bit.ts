import { z } from 'zod';
import { defineTool } from '../tool.js';
import { bitAbstract, bitBody, bitDescription, bitId, bitTitle, bitWritten, complexity, contentFormat, elements, humanRequired } from './bit-schemas.js';
import { categories, lastModifiedIgnored, nodeRef } from './common-schemas.js';

export const updateBitTool = defineTool({
  name: 'update_bit',
  title: 'Update a bit',
  description:
    'Changes the given fields of a bit; omitted fields stay. bit_body replaces the whole body and needs content_format. With markdown, write back every element, link and media anchor and every connection line\'s node= exactly as get_bit returned them; a node left out is BIT_CONTENT_LOSS unless its id (or its label when the id is null) is in remove_node_ids (which needs bit_body). Without bit_body, elements[] edits the stored nodes in place (id: change props or items; key: add). status cannot be set: use archive_bit. Errors: VALIDATION_ERROR (also a url that is not http, https or mailto, and nesting too deep), UNKNOWN_ELEMENT_PROP, UNSUPPORTED_MARKDOWN_CONSTRUCT, BIT_CONTENT_LOSS, BODY_TOO_LARGE, BIT_NOT_FOUND, BIT_ARCHIVED, ELEMENT_NOT_FOUND, CONNECTION_NOT_FOUND, SCOPE_MISMATCH, CONNECTION_LIMIT_EXCEEDED, REFERENCE_NOT_FOUND, REFERENCE_ARCHIVED.',
  flags: { W: true, D: true, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    bit_id: bitId,
    bit_title: bitTitle.optional(),
    bit_abstract: bitAbstract.optional(),
    bit_description: bitDescription.optional(),
    bit_categories: categories.optional(),
    bit_body: bitBody.optional(),
    content_format: contentFormat.optional(),
    complexity: complexity.optional(),
    elements: elements.optional(),
    human_required: humanRequired.optional(),
    remove_node_ids: z.array(nodeRef).optional().describe('Ids (or labels, for nodes whose id is null) of nodes the new bit_body deletes on purpose.'),
    status: z.never({ error: 'status cannot be set through update_bit: use archive_bit (and the REST restore to undo it)' }).optional(),
    last_modified_date_time_utc: lastModifiedIgnored,
  }),
  output: bitWritten,
  run: ({ actor, services }, input) => services.bits.update(actor, input),
});
