/**
 * The flow fields as tool inputs and outputs, shared by the flow tools so each field has one definition
 * (authoring-interface.md, "Flow"; limits from content/limits.ts).
 */
import { z } from 'zod';
import { LIMITS } from '../../content/limits.js';
import { PRIORITIES } from '../../store/enums.js';
import { categories, cursor, recordId } from './common-schemas.js';

export { lastModifiedIgnored } from './common-schemas.js';

export { REVIEW_STATUSES } from '../../store/enums.js';

export const flowId = recordId('The flow id (UUID).');

export const flowTitle = z
  .string()
  .max(LIMITS.title)
  .describe(`Non-empty, at most ${LIMITS.title} characters.`);

export const flowDescription = z
  .string()
  .max(LIMITS.flowDescription)
  .nullable()
  .describe(`At most ${LIMITS.flowDescription} characters; an empty string (or null) stores null.`);

export const flowCategories = categories;

export const priority = z.enum(PRIORITIES);

export const trailContextSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe(
    'JSON Schema 2020-12 of the trail_context that start_trail must receive: {type: "object", properties: {<name>: {type: "string" (optional format date, date-time, email, uri; or enum of strings; or oneOf [{const, title}]) | "number" | "integer" | "boolean" | "array" (items: a string enum)}}, required: [...]}. No $ref, no nested objects. null clears it (update_flow).',
  );


export { flowWrittenShape as flowWritten } from '../../services/flow-shapes.js';

export { flowViewShape as flowView } from '../../services/flow-shapes.js';

export const pageInput = {
  cursor: cursor.optional().describe('next_cursor of the previous page; omit for the first page.'),
  limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, 1 to ${LIMITS.pageSize}; default ${LIMITS.defaultPageSize}.`),
};
