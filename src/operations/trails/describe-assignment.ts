import { ASSIGNEE_FORMS } from '../../services/assignee.js';

/**
 * describe_platform's lines on running a trail as a team (issue 27): who does a step, by when, claiming, and
 * comments; what an agent must know before it acts.
 */
export function describeAssignment(): string[] {
  return [
    `A bit may say who does its step (assignee: ${ASSIGNEE_FORMS}) and how long it should take (expected_duration, ISO 8601 in weeks, days, hours, minutes or seconds, e.g. PT4H).`,
    'When a trail enters the step it is assigned to that person (context: the person whose email or id the trail_context field holds) or offered to the group; a step that names nobody is open to anyone who may run the trail.',
    "get_trail's current_step.assignee and waiting_for say whom a step waits for; an agent never acts on a step assigned to a person or offered to a group (STEP_ASSIGNED): tell the user who it waits for, no transfer_step is needed.",
    'transfer_step with to ("person:<id or email>" or "group:<id or name>") hands the step to them, with the reason; a person of the group claims its step in the app (the others see who has it) and may release it; an Admin reassigns it.',
    'start_trail may take due_date_time_utc; a step is due its expected_duration after it is entered, never later than its trail. get_trail and list_trails show due times and overdue; people are reminded once.',
    'comment_on_step leaves a comment on a step (the current one unless step_id) for whoever runs the trail; @name or @email mentions a person of the account, who is told. get_trail shows the current step\'s comments.',
  ];
}
