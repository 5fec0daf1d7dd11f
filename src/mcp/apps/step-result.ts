/**
 * What a trail tool's result gains for a client that can show a person the step (issue 14): the step payload
 * in `_meta` for the step form app, or the answers asked for by elicitation before the tool answers.
 */
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/server';
import type { Actor } from '../../services/actor.js';
import type { Services } from '../../services/index.js';
import { movedOf } from '../tools/trail-schemas.js';
import type { ClientFeatures } from './client-features.js';
import { stepPayloadBeside } from './step-alongside.js';
import { STEP_PAYLOAD_META_KEY, STEP_TOOLS } from './step-app.js';
import { answerByElicitation, ELICITING_TOOLS, type ElicitableStep } from './step-elicitation.js';

export interface StepResultContext {
  actor: Actor;
  services: Services;
  features: ClientFeatures;
  elicit(params: ElicitRequestFormParams): Promise<ElicitResult>;
}

interface TrailAnswer {
  trail_id?: unknown;
  current_step?: ElicitableStep | null;
}

export async function withStepForm(tool: string, data: unknown, c: StepResultContext): Promise<{ data: unknown; meta?: Record<string, unknown> }> {
  const answer = data as TrailAnswer;
  if (typeof answer?.trail_id !== 'string') return { data };
  const trailId = answer.trail_id;
  if (c.features.elicitation && ELICITING_TOOLS.has(tool) && answer.current_step) {
    const answered = await answerByElicitation({ actor: c.actor, services: c.services, trailId, step: answer.current_step, elicit: c.elicit });
    if (answered) {
      // The trail as it now stands, in the tool's own shape (advance_trail answers the moved form).
      const view = (await c.services.trails.get(c.actor, { trail_id: trailId }, 'markdown')).trail;
      return { data: tool === 'advance_trail' ? movedOf(view) : view };
    }
    return { data };
  }
  if (c.features.apps && STEP_TOOLS.has(tool)) {
    // Made from the read the tool's own service call did (step-alongside.ts); read again only if it kept none.
    const payload = (await stepPayloadBeside(data)) ?? (await c.services.stepForm.payload(c.actor, { trail_id: trailId }));
    return { data, meta: { [STEP_PAYLOAD_META_KEY]: payload } };
  }
  return { data };
}
