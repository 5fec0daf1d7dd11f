/**
 * The reference and link fields as tool inputs and outputs, shared by the References Library tools so each
 * field has one definition (authoring-interface.md, "Reference" and "Bit-level reference link"; limits
 * from content/limits.ts).
 */
import { z } from 'zod';
import { LIMITS } from '../../content/limits.js';
import { categories, recordId } from './common-schemas.js';

export { lastModifiedIgnored } from './common-schemas.js';

export const referenceId = recordId('The reference id (UUID); search_references finds them.');
export { bitId } from './bit-schemas.js';

export const referenceTitle = z
  .string()
  .max(LIMITS.title)
  .describe(`Non-empty, at most ${LIMITS.title} characters.`);

export const referenceAbstract = z
  .string()
  .max(LIMITS.referenceAbstract)
  .describe(`At most ${LIMITS.referenceAbstract} characters; an empty string stores null.`);

export const referenceContent = z
  .union([z.array(z.record(z.string(), z.unknown())), z.string()])
  .describe(
    'The body as a Slate node array, in the document model of bit bodies (e.g. [{"type":"p","children":[{"text":"…"}]}]); a JSON-stringified array is accepted. ' +
      'Prose, headings, lists, tables, links and media only: interactive elements are refused (INTERACTIVE_ELEMENT_NOT_ALLOWED). The searchable text is derived from it.',
  );

export const contentFormat = z.literal('slate').describe('Only "slate" (the default): reference_content is always a Slate node array.');

export const referenceCategories = categories;

export const displayLabel = z
  .string()
  .max(LIMITS.displayLabel)
  .describe(`At most ${LIMITS.displayLabel} characters; omitted or empty shows the reference's title.`);


export const referenceWritten = z.object({
  reference_id: z.string(),
  last_modified_date_time_utc: z.string(),
});

export const linkWritten = z.object({
  bit_id: z.string(),
  bit_reference_id: z.string(),
  reference_id: z.string(),
  position: z.number().int().describe('The link\'s zero-based position in the bit\'s list after this call.'),
});
