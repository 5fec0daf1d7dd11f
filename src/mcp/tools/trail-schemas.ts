/** The trail payload as tool output, shared by every trail tool (services/trail-view.ts is its source). */
import { z } from 'zod';
import { answerInnerSchema, conditionSchema } from './answer-schemas.js';
import { recordId } from './common-schemas.js';
import { LIMITS } from '../../content/limits.js';
import { TRAIL_STATUSES } from '../../store/enums.js';

export { TRAIL_STATUSES } from '../../store/enums.js';

export const trailId = recordId();

/** A reason a person reads (transfer_step, cancel_trail): at most LIMITS.reasonLength characters, not blank. */
export const trailReason = z
  .string()
  .max(LIMITS.reasonLength)
  .refine((text) => text.trim() !== '', { message: 'must not be blank' });

const condition = conditionSchema;

const answer = z.object({
  element_id: z.string(),
  element_type: z.string(),
  value: answerInnerSchema,
  warnings: z.array(z.string()),
  answered_by: z.string(),
  answered_date_time_utc: z.string(),
});

const step = z.object({
  step_id: z.string(),
  seq: z.number().int(),
  bit_id: z.string(),
  bit_title: z.string(),
  bit_abstract: z.string().nullable(),
  bit_body: z.string(),
  content_format: z.literal('markdown'),
  complexity: z.string(),
  human_required: z.boolean(),
  elements: z.array(
    z.object({
      element_id: z.string(),
      type: z.string(),
      element_type: z.string().nullable(),
      config: z.record(z.string(), z.unknown()).describe('The element\'s configuration: the props it was authored with (label, required, picker_type, url, minLength, data, …).'),
      items: z.array(z.object({ id: z.string() }).passthrough()).optional(),
      required: z.boolean(),
    }),
  ),
  references: z.array(z.object({ bit_reference_id: z.string(), reference_id: z.string(), display_label: z.string().nullable(), label: z.string(), position: z.number().int() })),
  answers: z.array(answer),
  required_missing: z.array(z.string()),
  connections_available: z.array(
    z.object({ connection_id: z.string(), target_bit_id: z.string(), target_bit_title: z.string(), label: z.string().nullable(), condition: condition.nullable() }),
  ),
  waiting_for_person: z.boolean(),
  transfer_reason: z.string().nullable().describe('The reason of the last transfer_step on this step, if any.'),
  entered_date_time_utc: z.string(),
});

export const trailView = z.object({
  trail_id: z.string(),
  flow_id: z.string(),
  trail_title: z.string().nullable(),
  status: z.enum(TRAIL_STATUSES),
  trail_context: z.record(z.string(), z.unknown()),
  started_by: z.string(),
  started_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
  current_step: step.nullable(),
  history: z.array(
    z.object({
      step_id: z.string(),
      seq: z.number().int(),
      bit_id: z.string(),
      bit_title: z.string(),
      entered_date_time_utc: z.string(),
      left_date_time_utc: z.string().nullable(),
      left_by: z.string().nullable(),
      left_by_connection_id: z.string().nullable(),
      transfers: z
        .array(z.object({ reason: z.string(), transferred_by: z.string().nullable(), transferred_date_time_utc: z.string() }))
        .describe('Every hand-over of the step to a person (transfer_step), oldest first.'),
      cancellation: z
        .object({ reason: z.string().nullable(), cancelled_by: z.string().nullable(), cancelled_date_time_utc: z.string() })
        .nullable()
        .describe('Who cancelled the trail on this step, when and why (cancel_trail); null otherwise.'),
      answers: z.array(answer),
    }),
  ),
});

/**
 * What the writing trail tools answer (issue "What an agent pays"): what changed, not the whole trail again.
 * The caller already holds the step it acted on, and get_trail has the history.
 */
const trailHead = trailView.pick({ trail_id: true, status: true, last_modified_date_time_utc: true });

/** advance_trail: the step now current, whole (null once the trail completed). */
export const trailMoved = trailHead.extend({ current_step: step.nullable() });

/** submit_step_data, transfer_step, cancel_trail: the same step's progress. */
export const trailProgress = trailHead.extend({
  current_step: step
    .pick({ step_id: true, bit_id: true, bit_title: true, answers: true, required_missing: true, connections_available: true, waiting_for_person: true, transfer_reason: true })
    .nullable(),
});

type TrailViewOut = z.infer<typeof trailView>;

export function movedOf(view: TrailViewOut): z.infer<typeof trailMoved> {
  return { trail_id: view.trail_id, status: view.status, last_modified_date_time_utc: view.last_modified_date_time_utc, current_step: view.current_step };
}

export function progressOf(view: TrailViewOut): z.infer<typeof trailProgress> {
  const s = view.current_step;
  return {
    trail_id: view.trail_id,
    status: view.status,
    last_modified_date_time_utc: view.last_modified_date_time_utc,
    current_step: s && {
      step_id: s.step_id,
      bit_id: s.bit_id,
      bit_title: s.bit_title,
      answers: s.answers,
      required_missing: s.required_missing,
      connections_available: s.connections_available,
      waiting_for_person: s.waiting_for_person,
      transfer_reason: s.transfer_reason,
    },
  };
}

/** What the writing tools say they answer (the output schema has the fields). */
export const PROGRESS_TEXT = 'Answers the step\'s progress (get_trail: the whole trail).';

export const STEP_PAYLOAD_TEXT =
  'Answers the trail: its current step (null once ended) and history.';
