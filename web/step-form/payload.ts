/**
 * The one JSON shape the step form is fed: the step payload (services/trails/shapes.ts stepPayloadShape: the
 * trail's current step as the trail tools show it, with the snapshot's Slate body, and what the caller may do).
 * Nothing else reaches the form, so it can run wherever that JSON can be handed over (this app, or a chat
 * client). Its types are the shape's, inferred: the form restates none of it.
 */
import type { BlockNode, SlateBody } from '../../src/content/slate.js';
import type { ErrorBody } from '../../src/errors.js';
import type { StepPayload } from '../../src/services/trails/shapes.js';
import type { MovedOn } from './stale.js';

export type { AnswerView, StepElement, StepPayload } from '../../src/services/trails/shapes.js';

/** The current step as the form shows it (the payload's `step`, null once the trail ended). */
export type StepView = NonNullable<StepPayload['step']>;

/**
 * A body as the server sends it for the form to render: the stored Slate nodes (the step payload's `body`,
 * get_bit's `bit_body` with format slate). Their shape is the store's, checked when the bit was written; the
 * wire schema says only "nodes", so this is where the form takes them as Slate.
 */
export function bodyOf(nodes: readonly unknown[]): SlateBody {
  return { children: nodes as BlockNode[] };
}

/** One answer as submit_step_data takes it (the inner value; the API wraps it as `{value}`). */
export interface AnswerInput {
  element_id: string;
  element_type: string;
  value: unknown;
}

/** Answers as submit_step_data and save_step take them: each inner value wrapped as `{value}`. */
export function submittedData(answers: AnswerInput[]) {
  return answers.map((a) => ({ element_id: a.element_id, element_type: a.element_type, value: { value: a.value } }));
}

/** A refusal as the API answers it: the tools' error envelope, what the form reads of it. */
export type StepError = Pick<ErrorBody, 'code' | 'message' | 'details'>;

/**
 * What the host gives the form: saving answers returns the step as it now stands; advancing leaves it. Both name the
 * step they are for (`stepId`), so a step the trail has left meanwhile is refused rather than another one answered.
 * When the trail moved on under the form, `movedOn` tells who did and where to (stale.ts), and `reload` shows the
 * step it is at now; a host without them leaves the person the general words.
 */
export interface StepActions {
  save(answers: AnswerInput[], stepId: string): Promise<StepPayload>;
  advance(connectionId: string | undefined, stepId: string): Promise<void>;
  movedOn?(stepId: string): Promise<MovedOn | null>;
  reload?(): void;
}
