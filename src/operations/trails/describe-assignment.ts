import { ASSIGNEE_FORMS } from '../../services/assignee.js';

/** describe_platform's lines on who does a trail's step and by when (issue 27): what an agent must know before it acts. */
export function describeAssignment(): string[] {
  return [
    `A bit may name who does its step (${ASSIGNEE_FORMS}); when a trail enters the step it is assigned to that person, or offered to the group, and nobody else may answer or advance it.`,
    "get_trail's current_step.assignee and waiting_for say whom a step waits for; an agent never acts on a step assigned to a person or offered to a group (STEP_ASSIGNED): tell the user who it waits for, no transfer_step is needed.",
    'transfer_step with to ("person:<id or email>" or "group:<id or name>") hands the step to them, with the reason; people claim a group\'s step in the app, release it, and an Admin reassigns it.',
    'start_trail may take due_date_time_utc; a bit may give expected_duration (ISO 8601, e.g. PT4H): a step is due that long after it is entered, never later than its trail. get_trail and list_trails show due times and overdue.',
  ];
}
