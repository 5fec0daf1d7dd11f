/**
 * The step payload beside a trail tool's answer (issue 25): the tool's service call has just read the trail, so
 * the payload the step form app needs is made from that read (its snapshot, parsed once) when withStepForm
 * (step-result.ts) shows the app, not by reading the trail again. Kept by the answer object: what a model reads,
 * the tool's answer, stays as it is.
 */
import type { OperationContext } from '../operation.js';
import type { StepPayload } from '../../services/trails/shapes.js';
import type { TrailRead } from '../../services/trails/view.js';

const beside = new WeakMap<object, () => Promise<StepPayload>>();

/** The tool's answer, with the payload of `read` kept beside it when the client can show the step form app. */
export function withStepPayload<T extends object>(ctx: OperationContext, answer: T, read: TrailRead): T {
  if (ctx.client?.apps) beside.set(answer, () => ctx.services.stepForm.of(ctx.actor, read));
  return answer;
}

/** The payload kept beside a tool's answer, made now; undefined when none was kept. */
export function stepPayloadBeside(answer: unknown): Promise<StepPayload> | undefined {
  return typeof answer === 'object' && answer !== null ? beside.get(answer)?.() : undefined;
}
