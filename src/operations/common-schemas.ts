/** Input fields every kind of record shares, defined once (limits from limits/). */
import { z } from 'zod';
import { LIMITS } from '../limits/index.js';

export const categories = z
  .array(z.string().max(LIMITS.categoryLength))
  .max(LIMITS.categories);

/** Categories on update: the JSON Schema states the limits; what it cannot say is that the list is replaced. */
export const categoriesReplaced = categories.describe('Replaces the whole list.');

export const lastModifiedIgnored = z.string().optional().describe('Ignored.');

/**
 * Ids as tool inputs, bounded: an unbounded id was echoed in the message and the details of its not-found
 * error, each twice (structuredContent and the text content), so a 20 MB bit_id made an 80 MB answer (issue 16).
 * A record id (bit, flow, reference, trail, scope, connection, principal) is a UUID: a malformed one is
 * VALIDATION_ERROR, while a well-formed id that names nothing the caller can see stays not-found (CONTRACT.md).
 */
export const uuid = z.guid({ error: 'must be a UUID (8-4-4-4-12 hexadecimal digits), as the tools return ids' });

/** A record id; described only where the name alone does not say where the id comes from or what it must be. */
export function recordId(description?: string) {
  return description === undefined ? uuid : uuid.describe(description);
}

/** An element or item id, a key, or a node label (remove_node_ids): bounded text, checked further by the body rules. */
export const nodeRef = z.string().max(LIMITS.nodeRefLength);

/** A next_cursor given back: opaque, bounded. */
export const cursor = z.string().min(1).max(LIMITS.cursorLength);

export const scopeId = recordId('Omit for account level.');

/**
 * A Slate node array as a tool takes it: advertised as a list of objects, and checked node by node by the
 * body's own Slate input (slate-input.ts: the node types, their fields, in the conversion worker when large).
 * Checked again here, per node, it held the event loop 140 ms for a body of 300,000 top-level nodes.
 */
export function slateNodes() {
  return z.array(z.unknown()).meta({ items: { type: 'object', additionalProperties: true } });
}

/** A point in time, ISO 8601: a date, or a date and time with an optional zone (UTC when none). Checked by a refinement, so its schema costs a prompt no pattern. */
export const isoTime = z
  .string()
  .max(40)
  .refine((value) => ISO_TIME.test(value) && existingDay(value), { error: 'must be an ISO 8601 time that exists, e.g. 2026-11-27T09:30:00Z' });

const ISO_TIME = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?$/;

/** Whether the text's date is a day of the calendar (Date.parse rolls 02-31 over into March) and the whole parses. */
function existingDay(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCMonth() === m - 1 && day.getUTCDate() === d && !Number.isNaN(Date.parse(value));
}
