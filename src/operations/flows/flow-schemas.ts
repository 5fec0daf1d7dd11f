/**
 * The flow fields as tool inputs and outputs, shared by the flow tools so each field has one definition
 * (authoring-interface.md, "Flow"; limits from limits/).
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { PRIORITIES } from '../../store/enums.js';
import { categories, categoriesReplaced, cursor, recordId } from '../common-schemas.js';

export { lastModifiedIgnored } from '../common-schemas.js';

export { REVIEW_STATUSES } from '../../store/enums.js';

export const flowId = recordId();

export const flowTitle = z
  .string()
  .max(LIMITS.title)
  .describe('Not blank.');

export const flowDescription = z
  .string()
  .max(LIMITS.flowDescription)
  .nullable()
  .describe('Empty or null stores null.');

export const flowCategories = categories;
export const flowCategoriesReplaced = categoriesReplaced;

export const priority = z.enum(PRIORITIES);

const contextSchemaValue = z.record(z.string(), z.unknown()).nullable();

/** The accepted profile (flows/trail-context-schema.ts enforces it), told once in tools/list: create_flow. */
export const trailContextSchema = contextSchemaValue.describe(
  'JSON Schema 2020-12 of the trail_context start_trail must receive: {type: "object", properties: {<name>: {type: string (format date, date-time, email or uri; enum; or oneOf [{const, title}]), number, integer, boolean, or array of a string enum}}, required}; nothing nested, no $ref.',
);

export const trailContextSchemaReplaced = contextSchemaValue.describe('As in create_flow; null removes it.');


export { flowWrittenShape as flowWritten } from '../../services/flows/shapes.js';

export { flowViewShape as flowView } from '../../services/flows/shapes.js';

export const pageInput = {
  cursor: cursor.optional().describe('next_cursor of the previous page.'),
  limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Default ${LIMITS.defaultPageSize}.`),
};
