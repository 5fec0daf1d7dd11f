import { z } from 'zod';
import { defineTool } from '../tool.js';
import { bitAbstract, bitBody, bitDescription, bitTitle, bitWritten, complexity, contentFormat, elements, humanRequired } from './bit-schemas.js';
import { categories, scopeId } from './common-schemas.js';

export const addBitTool = defineTool({
  name: 'add_bit',
  title: 'Add a bit',
  description:
    'Creates a standalone bit (a process step) with no flow position. bit_body is markdown (or Slate); each interactive element in it needs its elements[] entry (key), and a connection line creates a connection. Returns the new bit_id and minted_node_ids (key → id). Errors: VALIDATION_ERROR (also a url that is not http, https or mailto, and nesting too deep), UNKNOWN_ELEMENT_PROP, UNSUPPORTED_MARKDOWN_CONSTRUCT, BODY_TOO_LARGE, SCOPE_NOT_FOUND, and for connection lines and citations BIT_NOT_FOUND, BIT_ARCHIVED, SCOPE_MISMATCH, CONNECTION_LIMIT_EXCEEDED, REFERENCE_NOT_FOUND, REFERENCE_ARCHIVED.',
  flags: { W: true, D: false, I: false },
  access: { capability: 'author', permission: 'edit' },
  input: z.strictObject({
    bit_title: bitTitle,
    bit_body: bitBody,
    bit_abstract: bitAbstract.optional(),
    bit_description: bitDescription.optional(),
    bit_categories: categories.optional(),
    complexity: complexity.optional(),
    content_format: contentFormat.optional(),
    elements: elements.optional(),
    human_required: humanRequired.optional(),
    scope_id: scopeId.optional(),
  }),
  output: bitWritten,
  run: ({ actor, services }, input) => services.bits.add(actor, input),
});
