/**
 * What the inbox service answers, as zod schemas: each shape is written once, here, and is both the service's
 * type (z.infer) and the output schema the inbox operation declares (operations/trails/app-operations.ts), which the web
 * app reads (web/api.ts).
 */
import { z } from 'zod';
import { OPEN_TRAIL_STATUSES } from '../../store/enums.js';
import { INBOX_REASONS } from '../../store/repositories/inbox.repo.js';
import { stepAssigneeShape, transferShape } from './shapes.js';

export const inboxItemShape = z.object({
  trail_id: z.string(),
  trail_title: z.string().nullable(),
  flow_id: z.string(),
  flow_title: z.string(),
  status: z.enum(OPEN_TRAIL_STATUSES),
  step_id: z.string().nullable(),
  bit_id: z.string().nullable(),
  bit_title: z.string().nullable().describe('The step\'s title as the trail entered it.'),
  human_required: z.boolean(),
  reasons: z.array(z.enum(INBOX_REASONS)),
  transfer: transferShape.nullable().describe('The latest hand-over of the current step.'),
  started_by: z.string(),
  started_date_time_utc: z.string(),
  entered_date_time_utc: z.string().nullable(),
  last_modified_date_time_utc: z.string(),
  /** Who the step waits for (the groups view shows who holds each); null: anyone who may run the trail. */
  assignee: stepAssigneeShape.nullable(),
  /** The step's due time (never later than the trail's), and the trail's own. */
  due_date_time_utc: z.string().nullable(),
  trail_due_date_time_utc: z.string().nullable(),
  overdue: z.boolean(),
});
export type InboxItem = z.infer<typeof inboxItemShape>;

export const inboxShape = z.object({
  items: z.array(inboxItemShape),
  /** How many trails under the flow and status filters: in the view asked for (total), in each view (everyone: null but for Admins), and per reason. */
  counts: z.object({
    total: z.number().int(),
    mine: z.number().int(),
    groups: z.number().int(),
    everyone: z.number().int().nullable(),
    started_by_me: z.number().int(),
    transferred: z.number().int(),
    human_required: z.number().int(),
    assigned_to_me: z.number().int(),
    my_group: z.number().int(),
  }),
  next_cursor: z.string().nullable(),
});
export type Inbox = z.infer<typeof inboxShape>;
