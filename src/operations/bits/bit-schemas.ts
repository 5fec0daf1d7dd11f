/**
 * The bit fields as tool inputs and outputs, shared by the bit tools (authoring-interface.md, "Bit",
 * "add_bit", "update_bit"). Element props and items are checked by the element definitions in
 * src/content/elements, not here: one definition per element type.
 */
import { z } from 'zod';
import { nodeScheme } from '../../config.js';
import { ELEMENT_TYPES } from '../../content/index.js';
import { LIMITS } from '../../limits/index.js';
import { COMPLEXITIES } from '../../store/enums.js';
import { nodeRef, recordId, slateNodes } from '../common-schemas.js';

export const bitId = recordId();

export const bitTitle = z.string().max(LIMITS.title).describe('Not blank.');
export const bitAbstract = z.string().max(LIMITS.bitAbstract).describe('Empty stores null.');
export const bitDescription = z.string().max(LIMITS.bitDescription).describe('Empty stores null.');
export const complexity = z.enum(COMPLEXITIES).describe('Default medium.');
export const humanRequired = z.boolean().describe('A person must do the step (transfer_step).');
/**
 * Who does the bit's step and how long it should take (issue 27). tools/list gave both tools together 100 tokens
 * for them: add_bit's listing names the forms in brief (describe_platform in full), update_bit's takes them bare
 * with null; their lengths are checked by bits/assignee-field.ts, which a schema's maxLength would repeat.
 */
export const assignee = z.string().describe('Who does its step: starter, person:<id|email>, group:<id|name>, context:<field>.');
export const expectedDuration = z.string().describe('ISO 8601, e.g. P2D.');
export const assigneeOrNull = z.string().nullable();
export const expectedDurationOrNull = z.string().nullable();
const formatValue = z.enum(['slate', 'markdown']);
export const contentFormat = formatValue.describe('Default markdown.');
/** On update a text body does not default to markdown: bits/bits.service.ts asks for the format. */
export const contentFormatOfUpdate = formatValue.describe('Needed with a string bit_body.');

/** The body as add_bit takes it, the syntax in brief (describe_platform has all of it). */
const bodyValue = z.union([z.string(), slateNodes()]);

export const bitBody = bodyValue.describe(
  `Markdown (default) or Slate. An element: a line [<type>: <label>](${nodeScheme}:<key>) and its elements[] entry, items under it. ` +
    'A connection: a line [<label>](bit-connection:<target_bit_id>). A citation: [[ref:<reference_id>|<label>]]. More: describe_platform.',
);

/** update_bit's body: the same syntax, which tools/list already shows once (add_bit). */
export const bitBodyReplaced = bodyValue.describe('The whole new body, in add_bit\'s syntax.');

const itemEntry = z.object({ key: nodeRef.optional(), id: nodeRef.optional() }).catchall(z.unknown());

/** An elements[] entry as it is checked; add_bit's listing explains the fields, update_bit's points there. */
const elementShape = z.object({
  key: nodeRef.optional(),
  id: nodeRef.optional(),
  type: z.string(),
  props: z.record(z.string(), z.unknown()).optional(),
  items: z.array(itemEntry).optional(),
  parent_element_id: nodeRef.optional(),
});

export const elements = z
  .array(
    elementShape
      .extend({
        key: nodeRef.optional().describe(`A new element's anchor in the body: 1 to ${LIMITS.elementKeyLength} of A-Z a-z 0-9 _ -.`),
        type: z.string().describe(`One of ${ELEMENT_TYPES.join(', ')}.`),
        props: z.record(z.string(), z.unknown()).optional().describe('The type\'s props (describe_platform).'),
        items: z.array(itemEntry.describe('key or id, and the item fields (describe_platform item_schema).')).optional(),
        parent_element_id: nodeRef.optional().describe('To edit a check-list item: its check-list.'),
      })
      .describe('Exactly one of key (new) or id (existing).'),
  )
  .describe('Not with content_format slate.');

export const elementsEdited = z.array(elementShape).describe('As in add_bit; without bit_body they edit nodes in place.');

export { bitWrittenShape as bitWritten, connectionWrittenShape as connectionWritten } from '../../services/bits/shapes.js';
