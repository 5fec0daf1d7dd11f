import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { assignee, bitAbstract, bitBody, bitDescription, bitTitle, bitWritten, complexity, contentFormat, elements, expectedDuration, humanRequired } from './bit-schemas.js';
import { categories, scopeId } from '../common-schemas.js';

export const addBitTool = defineOperation({
  name: 'add_bit',
  title: 'Add a bit',
  description:
    'Creates a bit (a process step) outside any flow. Each interactive element in bit_body needs its elements[] entry (key); a connection line creates a connection. Answers bit_id and minted_node_ids (key → id).',
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
    assignee: assignee.optional(),
    expected_duration: expectedDuration.optional(),
    scope_id: scopeId.optional(),
  }),
  output: bitWritten,
  run: ({ actor, services }, input) => services.bits.add(actor, input),
});
