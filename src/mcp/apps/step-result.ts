/**
 * What an answer gains at the MCP door for a client that can show a person the step (issue 14), for the operations
 * that declare the step form (OperationDeclaration.stepForm): the step payload in `_meta` for the step form app,
 * or the answers asked for by elicitation (where the declaration allows it) before the tool answers.
 */
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { Presented } from '../../operations/dispatch.js';
import type { Operation, OperationContext } from '../../operations/operation.js';
import { NO_FEATURES } from '../../operations/platform/client-features.js';
import { STEP_PAYLOAD_META_KEY } from '../../operations/platform/step-meta.js';
import type { AskedSteps } from './asked-steps.js';
import { answerByElicitation, type ElicitableStep } from './step-elicitation.js';
import { stepPayloadBeside } from '../../operations/trails/step-alongside.js';

export interface StepResultContext extends OperationContext {
  /** The session's memory of the steps it asked its person for (asked-steps.ts). */
  asked: AskedSteps;
  elicit(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

interface TrailAnswer {
  trail_id?: unknown;
  current_step?: ElicitableStep | null;
}

export async function withStepForm(operation: Operation, data: unknown, c: StepResultContext): Promise<Presented> {
  const answer = data as TrailAnswer;
  const form = operation.stepForm;
  if (!form || typeof answer?.trail_id !== 'string') return { data };
  const trailId = answer.trail_id;
  const features = c.client ?? NO_FEATURES;
  if (features.elicitation && form.elicit && answer.current_step) {
    const answered = await answerByElicitation({ actor: c.actor, services: c.services, trailId, step: answer.current_step, asked: c.asked, elicit: c.elicit });
    // The trail as it now stands, in the operation's own answer shape (advance_trail answers the moved form).
    return answered ? { data: await form.elicit((await c.services.trails.get(c.actor, { trail_id: trailId }, 'markdown')).trail, c) } : { data };
  }
  if (features.apps) {
    // Made from the read the operation's own service call did (step-alongside.ts); read again only if it kept none.
    const payload = (await stepPayloadBeside(data)) ?? (await c.services.stepForm.payload(c.actor, { trail_id: trailId }));
    return { data, meta: { [STEP_PAYLOAD_META_KEY]: payload } };
  }
  return { data };
}
