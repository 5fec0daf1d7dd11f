/**
 * The webhook event types (issue 29), each defined once: its name, what it means, and which accepted changes (the
 * events of migration 013: resource, operation, summary) are of it. Subscriptions name these (or `*`); the
 * deliverer asks `typeOf` of each event; describe_platform and the app list them.
 */
import type { EventTable } from '../../store/schema.js';

type EventFacts = Pick<EventTable, 'resource_type' | 'operation'> & { summary: Record<string, unknown> };

interface EventTypeDefinition {
  name: string;
  description: string;
  matches(event: EventFacts): boolean;
}

const trail = (event: EventFacts, ...operations: string[]) => event.resource_type === 'trail' && operations.includes(event.operation);
const advanced = (event: EventFacts) => trail(event, 'advance_trail', 'advance_step');

export const WEBHOOK_EVENT_TYPES: readonly EventTypeDefinition[] = [
  { name: 'trail.started', description: 'A trail was started (start_trail).', matches: (e) => trail(e, 'start_trail') },
  { name: 'trail.step_entered', description: 'A trail moved on to its next step (advance).', matches: (e) => advanced(e) && e.summary.status !== 'completed' },
  // The name stays as subscriptions know it; since issue 27 a step may be handed to a group as well.
  { name: 'trail.step_handed_to_person', description: 'A step was handed to a person or a group (transfer_step).', matches: (e) => trail(e, 'transfer_step') },
  { name: 'trail.step_assigned', description: 'A step was claimed, given back to its group, or reassigned by an Admin.', matches: (e) => trail(e, 'claim_step', 'release_step', 'assign_step') },
  // The change names the step and the comment, never its words: a receiver reads them with get_trail's access.
  { name: 'trail.commented', description: 'A comment was left on a step (comment_on_step).', matches: (e) => trail(e, 'comment_on_step') },
  { name: 'trail.answers_submitted', description: 'Answers were submitted on a step.', matches: (e) => trail(e, 'submit_step_data', 'save_step') },
  { name: 'trail.completed', description: 'A trail reached its end.', matches: (e) => advanced(e) && e.summary.status === 'completed' },
  { name: 'trail.cancelled', description: 'A trail was cancelled.', matches: (e) => trail(e, 'cancel_trail') },
  { name: 'flow.approved', description: 'A flow was approved (a new flow version).', matches: (e) => e.resource_type === 'flow' && e.summary.review_status === 'approved' },
  { name: 'flow.changed', description: 'A flow was created or changed, other than an approval.', matches: (e) => e.resource_type === 'flow' && e.summary.review_status !== 'approved' },
  { name: 'bit.changed', description: 'A bit was added, changed, archived, restored, connected or linked.', matches: (e) => e.resource_type === 'bit' },
  { name: 'reference.changed', description: 'A reference was created or changed.', matches: (e) => e.resource_type === 'reference' },
  { name: 'group.changed', description: 'A group of people was made, renamed, filled, emptied or removed.', matches: (e) => e.resource_type === 'group' },
];

export const WEBHOOK_EVENT_NAMES = WEBHOOK_EVENT_TYPES.map((t) => t.name) as [string, ...string[]];

/** Every type, in a subscription. */
export const ALL_EVENTS = '*';

/** The webhook event type of an accepted change, or null when no subscription can receive it (a token, a session…). */
export function typeOf(event: EventFacts): string | null {
  return WEBHOOK_EVENT_TYPES.find((t) => t.matches(event))?.name ?? null;
}

export function subscribed(types: readonly string[], type: string): boolean {
  return types.includes(ALL_EVENTS) || types.includes(type);
}
