/**
 * The bit fields as tool inputs and outputs, shared by the bit tools (authoring-interface.md, "Bit",
 * "add_bit", "update_bit"). Element props and items are checked by the element definitions in
 * src/content/elements, not here: one definition per element type.
 */
import { z } from 'zod';
import { nodeScheme } from '../../config.js';
import { ELEMENT_TYPES } from '../../content/index.js';
import { LIMITS } from '../../content/limits.js';
import { COMPLEXITIES } from '../../store/enums.js';
import { nodeRef, recordId } from './common-schemas.js';

export const bitId = recordId('The bit id (UUID).');

export const bitTitle = z.string().max(LIMITS.title).describe(`Non-empty, at most ${LIMITS.title} characters; cannot be blanked.`);
export const bitAbstract = z.string().max(LIMITS.bitAbstract).describe(`At most ${LIMITS.bitAbstract} characters; an empty string stores null.`);
export const bitDescription = z.string().max(LIMITS.bitDescription).describe(`At most ${LIMITS.bitDescription} characters; an empty string stores null.`);
export const complexity = z.enum(COMPLEXITIES).describe('Default medium; travels with the step so executors can weigh it.');
export const humanRequired = z.boolean().describe('When true a person must do the step; an executing agent transfers it (transfer_step).');
export const contentFormat = z.enum(['slate', 'markdown']).describe('markdown (default) or slate; a node array reads as slate.');

export const bitBody = z
  .union([z.string(), z.array(z.record(z.string(), z.unknown()))])
  .describe(
    `Markdown (default) or a Slate node array (also as a JSON string). At most ${LIMITS.bodyBytes} bytes after conversion. ` +
      `Elements: a line [<type>: <label>](${nodeScheme}:<key>) with its elements[] entry; items under it; links and media keep their ids as ` +
      `"${nodeScheme}:<id>" titles; citations [[ref:<reference_id>|<label>]]; credentials [credential: <handle>](credential:<handle> "<purpose>"); ` +
      `connections on their own line [<label>](bit-connection:<target_bit_id>). describe_platform has the whole syntax.`,
  );

const itemEntry = z
  .object({ key: nodeRef.optional(), id: nodeRef.optional() })
  .catchall(z.unknown())
  .describe('An item: key (new) or id (existing) and its fields (check-list: text, checked, required; radio-button: text, checked; dropdown: name, value).');

export const elementEntry = z
  .object({
    key: nodeRef.optional().describe('A new element: 1 to 32 of A-Z a-z 0-9 _ -, used once per call; its anchor in the body.'),
    id: nodeRef.optional().describe('An existing element id.'),
    type: z.string().describe(`One of ${ELEMENT_TYPES.join(', ')}.`),
    props: z.record(z.string(), z.unknown()).optional().describe('The props of the type (describe_platform lists them); an unknown prop is UNKNOWN_ELEMENT_PROP.'),
    items: z.array(itemEntry).optional(),
    parent_element_id: nodeRef.optional().describe('A check-list item is edited through its list: the check-list id.'),
  })
  .describe('Exactly one of key or id.');

export const elements = z.array(elementEntry).describe(`At most ${LIMITS.entriesAndItemsPerCall} entries and items together in one call; not with content_format slate.`);

export { bitWrittenShape as bitWritten, connectionWrittenShape as connectionWritten } from '../../services/bit-shapes.js';
