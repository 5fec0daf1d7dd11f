/** What list_history answers (issue 26), as zod schemas: the service's types and the operation's output schema. */
import { z } from 'zod';
import { EVENT_ACTOR_KINDS, EVENT_RESOURCE_TYPES } from '../../store/enums.js';

export const eventViewShape = z.object({
  event_id: z.string(),
  /** The account's change number: 1, 2, 3, … */
  seq: z.number().int(),
  occurred_date_time_utc: z.string(),
  scope_id: z.string().nullable(),
  operation: z.string(),
  resource_type: z.enum(EVENT_RESOURCE_TYPES),
  resource_id: z.string(),
  revision: z.number().int().nullable(),
  principal_id: z.string().nullable(),
  principal_kind: z.enum(EVENT_ACTOR_KINDS),
  token_id: z.string().nullable(),
  client_name: z.string().nullable(),
  summary: z.record(z.string(), z.unknown()),
});
export type EventView = z.infer<typeof eventViewShape>;

export const historyPageShape = z.object({ events: z.array(eventViewShape), next_cursor: z.string().nullable() });
export type HistoryPage = z.infer<typeof historyPageShape>;
