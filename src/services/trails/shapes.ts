/**
 * What the trail services answer, as zod schemas: each shape is written once, here, and is both the services'
 * type (z.infer) and the output schema the trail tools declare (operations/trails/trail-schemas.ts, list-trails.ts), the
 * step operation and the web app read (CONTRACT.md, "Tools beyond the interface document": the step payload).
 */
import { z } from 'zod';
import { TRAIL_STATUSES } from '../../store/enums.js';
import { connectionShape } from '../bits/shapes.js';
import { referenceLinkShape } from '../references/shapes.js';
import { peopleShape } from '../auth/shapes.js';
import { stepCommentsShape } from './comment-shapes.js';

/**
 * An answer's inner value, `value.value`. Its shape depends on the element type (describe_platform's
 * answer_schema of each type); the element's own rules check it and refuse a wrong one as ANSWER_INVALID,
 * so this schema only advertises the kinds of JSON it may be, and accepts any.
 */
export const answerInnerShape = z.unknown().meta({
  anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: true }],
  description: 'Shape per element type: describe_platform answer_schema.',
});

export const answerViewShape = z.object({
  element_id: z.string(),
  element_type: z.string(),
  value: answerInnerShape,
  warnings: z.array(z.string()),
  answered_by: z.string(),
  answered_date_time_utc: z.string(),
});
export type AnswerView = z.infer<typeof answerViewShape>;

export const stepElementShape = z.object({
  element_id: z.string(),
  /** The element type of the body (`text-area`, …). */
  type: z.string(),
  /** The step type name submit_step_data uses; for a check-list, each item is answered as CheckListItem. */
  element_type: z.string().nullable(),
  /*
   * The element's configuration: its props as the bit stores them (label, required, picker_type, url, …).
   * Named `config` as authoring-interface.md names it for answers (`config.picker_type`, `<config.url>`) and
   * CONTRACT.md for the step payload ("elements with config"); the authoring tools call the same object props.
   */
  config: z.record(z.string(), z.unknown()).describe('The element\'s configuration: the props it was authored with (label, required, picker_type, url, minLength, data, …).'),
  items: z.array(z.object({ id: z.string() }).passthrough()).optional(),
  /** Whether advancing needs an answer (a check-list: whether some item must be checked). */
  required: z.boolean(),
});
export type StepElement = z.infer<typeof stepElementShape>;

/** A connection of the step that its condition and its target's state let the trail follow now. */
export const availableConnectionShape = connectionShape.pick({ connection_id: true, target_bit_id: true }).extend({
  target_bit_title: z.string(),
  label: connectionShape.shape.label,
  condition: connectionShape.shape.condition,
});
export type AvailableConnection = z.infer<typeof availableConnectionShape>;

/** Who a step waits for (issue 27): a person, a group, or a member of the group who claimed it. */
export const stepAssigneeShape = z.object({
  principal_id: z.string().nullable(),
  name: z.string().nullable(),
  group_id: z.string().nullable(),
  group_name: z.string().nullable(),
  /** A member of the group holds it (claim_step, or answering it). */
  claimed: z.boolean(),
});
export type StepAssigneeView = z.infer<typeof stepAssigneeShape>;

export const stepViewShape = z.object({
  step_id: z.string(),
  seq: z.number().int(),
  bit_id: z.string(),
  bit_title: z.string(),
  bit_abstract: z.string().nullable(),
  bit_body: z.string(),
  content_format: z.literal('markdown'),
  complexity: z.string(),
  human_required: z.boolean(),
  elements: z.array(stepElementShape),
  references: z.array(referenceLinkShape),
  /** The answer that counts for each element (the latest), in the order first answered. */
  answers: z.array(answerViewShape),
  /** Required element ids (check-list items by their own id) still without a counting answer. */
  required_missing: z.array(z.string()),
  connections_available: z.array(availableConnectionShape),
  waiting_for_person: z.boolean(),
  transfer_reason: z.string().nullable().describe('The reason of the last transfer_step on this step, if any.'),
  entered_date_time_utc: z.string(),
  /** The bit revision the step runs (get_revision shows it); null on steps entered before revisions were kept. */
  bit_revision: z.number().int().nullable(),
  /** Who the step waits for; null: anyone who may run the trail. */
  assignee: stepAssigneeShape.nullable(),
  due_date_time_utc: z.string().nullable(),
  overdue: z.boolean(),
  /** One line saying whom the step waits for and by when (or why nobody is named); null when there is nothing to say. */
  waiting_for: z.string().nullable(),
});
export type StepView = z.infer<typeof stepViewShape>;

export const transferShape = z.object({
  reason: z.string(),
  /** Null only for a transfer made before the store recorded who made it. */
  transferred_by: z.string().nullable(),
  transferred_date_time_utc: z.string(),
});
export type TransferView = z.infer<typeof transferShape>;

export const historyEntryShape = z.object({
  step_id: z.string(),
  seq: z.number().int(),
  bit_id: z.string(),
  bit_title: z.string(),
  bit_revision: z.number().int().nullable(),
  entered_date_time_utc: z.string(),
  left_date_time_utc: z.string().nullable(),
  left_by: z.string().nullable(),
  left_by_connection_id: z.string().nullable(),
  transfers: z.array(transferShape).describe('Every hand-over of the step to a person (transfer_step), oldest first.'),
  /** Set on the step the trail was on when cancel_trail ended it (the step is left then, by the same principal). */
  cancellation: z
    .object({ reason: z.string().nullable(), cancelled_by: z.string().nullable(), cancelled_date_time_utc: z.string() })
    .nullable()
    .describe('Who cancelled the trail on this step, when and why (cancel_trail); null otherwise.'),
  /** Every answer given on the step, replaced ones included, oldest first. */
  answers: z.array(answerViewShape),
});
export type HistoryEntry = z.infer<typeof historyEntryShape>;

export const trailViewShape = z.object({
  trail_id: z.string(),
  flow_id: z.string(),
  trail_title: z.string().nullable(),
  status: z.enum(TRAIL_STATUSES),
  trail_context: z.record(z.string(), z.unknown()),
  started_by: z.string(),
  started_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
  /** The approved flow version the trail runs (start_trail version "approved"); null: the bits as they were when entered. */
  flow_version: z.number().int().nullable(),
  due_date_time_utc: z.string().nullable(),
  overdue: z.boolean(),
  current_step: stepViewShape.nullable(),
  history: z.array(historyEntryShape),
});
export type TrailView = z.infer<typeof trailViewShape>;

/**
 * What the writing trail tools answer (issue "What an agent pays"): what changed, not the whole trail again.
 * The caller already holds the step it acted on, and get_trail has the history.
 */
const trailHead = trailViewShape.pick({ trail_id: true, status: true, last_modified_date_time_utc: true });

/** advance_trail: the step now current, whole (null once the trail completed). */
export const trailMovedShape = trailHead.extend({ current_step: stepViewShape.nullable() });
export type TrailMoved = z.infer<typeof trailMovedShape>;

/** submit_step_data, transfer_step, cancel_trail: the same step's progress. */
export const trailProgressShape = trailHead.extend({
  current_step: stepViewShape
    .pick({ step_id: true, bit_id: true, bit_title: true, answers: true, required_missing: true, connections_available: true, waiting_for_person: true, transfer_reason: true })
    .nullable(),
});
export type TrailProgress = z.infer<typeof trailProgressShape>;

/** The warnings of the answers submit_step_data accepted, per element. */
export const answerWarningsShape = z.array(z.object({ element_id: z.string(), warnings: z.array(z.string()) }));
export type AnswerWarnings = z.infer<typeof answerWarningsShape>;

/** submit_step_data: the step's progress and the accepted answers' warnings. */
export const trailSubmittedShape = trailProgressShape.extend({ warnings: answerWarningsShape });
export type TrailSubmitted = z.infer<typeof trailSubmittedShape>;

export const trailSummaryShape = z.object({
  trail_id: z.string(),
  flow_id: z.string(),
  trail_title: z.string().nullable(),
  status: z.enum(TRAIL_STATUSES),
  current_bit_id: z.string().nullable(),
  current_bit_title: z.string().nullable().describe('The current bit\'s title as it is now (get_trail shows the step as the trail entered it).'),
  started_by: z.string(),
  started_date_time_utc: z.string(),
  last_modified_date_time_utc: z.string(),
  /** The trail's own due time, and its current step's (never later than the trail's). */
  due_date_time_utc: z.string().nullable(),
  step_due_date_time_utc: z.string().nullable(),
  overdue: z.boolean(),
  archived_date_time_utc: z.string().nullable().describe('When the finished trail was archived (listed only with include_archived).'),
});
export type TrailSummary = z.infer<typeof trailSummaryShape>;

/** list_trails' answer. */
export const trailPageShape = z.object({ trails: z.array(trailSummaryShape), next_cursor: z.string().nullable() });
export type TrailPage = z.infer<typeof trailPageShape>;

/** A step the trail has left, as the step form's progress counts it and a stale step names who moved it on. */
export const stepDoneShape = z.object({
  step_id: z.string(),
  seq: z.number().int(),
  bit_title: z.string(),
  left_by: z.string().nullable(),
  left_date_time_utc: z.string(),
});

/** A bit ahead of the current step (way-ahead.ts BitAhead): its title and outgoing connections with their conditions. */
export const bitAheadShape = z.object({
  bit_id: z.string(),
  bit_title: z.string(),
  connections: z.array(connectionShape.pick({ connection_id: true, target_bit_id: true, condition: true })),
});

/**
 * The step form's payload (the step operation, trails/step-form.service.ts): the current step with its body as
 * Slate nodes, each element's answer rule, and what the caller may do now.
 */
export const stepPayloadShape = z.object({
  trail: trailViewShape.pick({ trail_id: true, trail_title: true, flow_id: true, status: true, trail_context: true, due_date_time_utc: true, overdue: true }).extend({
    flow_title: z.string(),
    /** The title the flow's trail_context_schema gives each context field (the field's own name when it gives none). */
    context_labels: z.record(z.string(), z.string()),
  }),
  step: stepViewShape
    .omit({ bit_body: true, content_format: true, elements: true })
    .extend({
      body: z.array(z.unknown()).describe('The step\'s body as Slate nodes, as the trail entered it.'),
      elements: z.array(stepElementShape.extend({ answer_rule: z.string().nullable().describe('The answer rule of the element type; null for elements that take no answer.') })),
      connections: z
        .array(availableConnectionShape)
        .describe('Every connection of the step whose target the trail may enter, with its condition: the form opens them with the unsaved answers by the rule advance_trail follows (trails/conditions.ts).'),
      steps_done: z.array(stepDoneShape).describe('The steps the trail has left, oldest first.'),
      ahead: z.array(bitAheadShape).describe('The bits reachable from this step as they are now, for the likely way ahead (trails/way-ahead.ts).'),
    })
    .nullable(),
  may: z.object({
    answer: z.boolean(),
    advance: z.boolean(),
    transfer: z.boolean(),
    cancel: z.boolean(),
    /** Take the step (claim_step): offered to a group of the caller's, or waiting for any person, and no one holds it. */
    claim: z.boolean(),
    /** Give it back (release_step): the caller holds it. */
    release: z.boolean(),
    /** Hand it to someone else or to nobody (assign_step): an Admin. */
    assign: z.boolean(),
  }),
  /** The current step's newest comments (comment-shapes.ts); null once the trail ended. */
  comments: stepCommentsShape.nullable(),
});
export type StepPayload = z.infer<typeof stepPayloadShape>;

/** Who a trail's history names (the trail_people operation, trails/people.service.ts), by name. */
/**
 * What a trail's history names, in words (issues 11 and 28): the principals by name and kind, and each element its
 * steps asked by its label and type, with its options' and items' texts, so "answered Dropdown: db9125af-…" reads
 * "chose Full-time in Employment type".
 */
export const trailPeopleShape = peopleShape.extend({
  elements: z.record(
    z.string(),
    z.object({
      label: z.string().nullable(),
      /** The element type of the body (`dropdown`, `check-list`, …); a check-list item is `check-list-item`. */
      type: z.string(),
      /** A check-list item's list label. */
      list: z.string().nullable().optional(),
      /** An element's options or items by id: their texts. */
      options: z.record(z.string(), z.string()).optional(),
    }),
  ),
});
export type TrailPeople = z.infer<typeof trailPeopleShape>;
