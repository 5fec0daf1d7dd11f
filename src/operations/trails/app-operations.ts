/**
 * The operations the web app needs beyond the MCP tools (issue 11): the inbox and the step payload. Declared
 * like tools (defineOperation: zod input and output, access, one service call) so the REST adapter serves them, and
 * OpenAPI describes them, exactly as it does the tools; they are not offered over MCP.
 */
import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { OPEN_TRAIL_STATUSES } from '../../store/enums.js';
import { defineOperation } from '../operation.js';
import { advanceTrailInput, advanceTrailTool } from './advance-trail.js';
import { answersOf, submitStepDataInput, submitStepDataTool } from './submit-step-data.js';
import { trailId } from './trail-schemas.js';
import { inboxShape } from '../../services/trails/inbox-shapes.js';
import { stepPayloadShape, trailPeopleShape } from '../../services/trails/shapes.js';
import { INBOX_REASONS, INBOX_SORTS, INBOX_VIEWS } from '../../services/trails/inbox.service.js';
import { errorCode } from '../operation.js';


export const inboxOperation = defineOperation({
  name: 'inbox',
  title: 'My inbox',
  description: [
    'The steps waiting for me, newest change first: running or waiting trails I started (reason started_by_me), steps handed to a person (transferred, with the reason),',
    'and human_required steps of my account\'s running trails (human_required). People see all three; an agent sees its own trails whose step it may act on.',
    'counts: how many trails under the flow and status filters, in all and per reason. Errors: FLOW_NOT_FOUND, VALIDATION_ERROR (a bad cursor).',
  ].join(' '),
  flags: { W: false, D: false, I: true },
  access: { capability: 'run', permission: 'view' },
  rest: { method: 'get', path: '/inbox', operationId: 'inbox' },
  mcp: false,
  input: z.strictObject({
    flow_id: z.string().min(1).optional().describe('Only trails of this flow.'),
    status: z.enum(OPEN_TRAIL_STATUSES).optional(),
    reason: z.enum(INBOX_REASONS).optional().describe('Only items there for this reason.'),
    view: z.enum(INBOX_VIEWS).optional().describe('mine (default): assigned to or claimed by me, my trails, steps open to any person; groups: offered to my groups; everyone: every open trail (Admins).'),
    sort: z.enum(INBOX_SORTS).optional().describe('updated (default): newest change first; due: soonest due first, none last.'),
    overdue: z.boolean().optional().describe('Only steps past their due time.'),
    limit: z.number().int().min(1).max(LIMITS.pageSize).optional().describe(`Page size, 1 to ${LIMITS.pageSize}; default ${LIMITS.inboxPageSize}.`),
    cursor: z.string().optional().describe('next_cursor of the previous page; omit for the first page.'),
  }),
  output: inboxShape,
  run: ({ actor, services }, input) => services.inbox.list(actor, input),
});

export const stepOperation = defineOperation({
  name: 'step',
  title: 'The step form\'s payload',
  description:
    'The current step of a trail as the step form consumes it: body as Slate nodes (as get_bit format slate), elements with config, required and answer_rule (the rule submit_step_data enforces), the answers that count, required_missing, connections_available with target titles, references; may: what the caller can do now. step is null once the trail is completed or cancelled. Errors: TRAIL_NOT_FOUND.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'run', permission: 'view' },
  rest: { method: 'get', path: '/trails/:trail_id/step', operationId: 'getStep' },
  mcp: false,
  input: z.strictObject({ trail_id: trailId }),
  output: stepPayloadShape,
  run: ({ actor, services }, input) => services.stepForm.payload(actor, input),
});

export const trailPeopleOperation = defineOperation({
  name: 'trail_people',
  title: 'Who took part in a trail',
  description: 'What a trail\'s history names, in words: the principals (started_by, answered_by, left_by, transferred_by, cancelled_by) by name and kind, and the elements its steps asked by label with their options\' texts. Errors: TRAIL_NOT_FOUND.',
  flags: { W: false, D: false, I: true },
  access: { capability: 'run', permission: 'view' },
  rest: { method: 'get', path: '/trails/:trail_id/people', operationId: 'getTrailPeople' },
  mcp: false,
  input: z.strictObject({ trail_id: trailId }),
  output: trailPeopleShape,
  run: ({ actor, services }, input) => services.trailPeople.list(actor, input),
});

/**
 * The step form's Save (issue 25): submit_step_data's input, rules, errors and access, through the same service
 * call, answered with the step payload as the step now stands, so a Save is one call and one read of the step.
 */
export const saveStepOperation = defineOperation({
  name: 'save_step',
  title: 'Save answers and read the step form',
  description:
    'Records answers to the current step as submit_step_data does (the same input, rules and errors), and answers the step payload as the step operation does, with the answers saved. expected_step_id: the step the answers are for; when the trail has left it, nothing is recorded (VALIDATION_ERROR, details.current_step). Errors: those of submit_step_data.',
  flags: { W: true, D: false, I: false },
  access: submitStepDataTool.access,
  rest: { method: 'post', path: '/trails/:trail_id/step/answers', operationId: 'saveStep' },
  mcp: false,
  input: submitStepDataInput.extend({ expected_step_id: advanceTrailInput.shape.expected_step_id }),
  output: stepPayloadShape,
  run: ({ actor, services }, input) => services.stepForm.save(actor, { trail_id: input.trail_id, data: answersOf(input.data), expected_step_id: input.expected_step_id }),
});

/** The step form's Continue: advance_trail's input, rules, errors and access, answered with the step payload of the step now current. */
export const advanceStepOperation = defineOperation({
  name: 'advance_step',
  title: 'Leave the step and read the next one\'s form',
  description:
    'Leaves the current step as advance_trail does (the same input, rules and errors), and answers the step payload of the step the trail is now at (step null once it completed). Errors: those of advance_trail.',
  flags: { W: true, D: false, I: false },
  access: advanceTrailTool.access,
  rest: { method: 'post', path: '/trails/:trail_id/step/advance', operationId: 'advanceStep' },
  mcp: false,
  input: advanceTrailInput,
  output: stepPayloadShape,
  run: ({ actor, services }, input) => services.stepForm.advance(actor, input),
});

/** The step's assignment from the app (issue 27): claim, release, and an Admin's reassignment; each answers the step payload. */
export const claimStepOperation = defineOperation({
  name: 'claim_step',
  title: 'Take a step',
  description: `The caller takes the trail's current step: one offered to a group they are in, or one nobody is named for. The others see who has it. Claiming a step one holds changes nothing. Errors: ${errorCode('STEP_ASSIGNED')} (someone else holds it, or the group is not theirs), HUMAN_REQUIRED, TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING.`,
  flags: { W: true, D: false, I: true },
  access: { capability: 'run', permission: 'view' },
  rest: { method: 'post', path: '/trails/:trail_id/step/claim', operationId: 'claimStep' },
  mcp: false,
  input: z.strictObject({ trail_id: trailId }),
  output: stepPayloadShape,
  run: async ({ actor, services }, input) => services.stepForm.of(actor, await services.trails.claim(actor, input)),
});

export const releaseStepOperation = defineOperation({
  name: 'release_step',
  title: 'Give a step back',
  description: `The holder of the trail's current step gives it back: to the group it was offered to (its members are told), or to anyone when it had none. A step nobody holds is left as it is. Errors: ${errorCode('STEP_ASSIGNED')} (someone else holds it), TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING.`,
  flags: { W: true, D: false, I: true },
  access: { capability: 'run', permission: 'view' },
  rest: { method: 'post', path: '/trails/:trail_id/step/release', operationId: 'releaseStep' },
  mcp: false,
  input: z.strictObject({ trail_id: trailId }),
  output: stepPayloadShape,
  run: async ({ actor, services }, input) => services.stepForm.of(actor, await services.trails.release(actor, input)),
});

export const assignStepOperation = defineOperation({
  name: 'assign_step',
  title: 'Reassign a step',
  description: `An Admin gives the trail's current step to a person ("person:<id or email>"), a group ("group:<id or name>"), or nobody (to: null, open to anyone who may run the trail). The new assignee is told. Errors: ${errorCode('PRINCIPAL_NOT_FOUND')}, GROUP_NOT_FOUND, FORBIDDEN, TRAIL_NOT_FOUND, TRAIL_NOT_RUNNING.`,
  flags: { W: true, D: false, I: true },
  access: { capability: 'run', permission: 'admin' },
  rest: { method: 'post', path: '/trails/:trail_id/step/assign', operationId: 'assignStep' },
  mcp: false,
  input: z.strictObject({
    trail_id: trailId,
    to: z.string().min(1).max(LIMITS.title).nullable().describe('"person:<id or email>", "group:<id or name>", or null for nobody.'),
  }),
  output: stepPayloadShape,
  run: async ({ actor, services }, input) => services.stepForm.of(actor, await services.trails.assign(actor, input)),
});
