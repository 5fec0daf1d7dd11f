/**
 * The step payload (issue 11): everything the step form shows and checks, in one JSON shape, so the form can
 * run wherever that shape arrives (the web app today, a chat client later). It is the trail view's current
 * step (the same elements, answers and available connections as get_trail) with the body as Slate nodes, each
 * element's answer rule (the text of the element definition that submit_step_data enforces) and what the
 * caller may do now.
 */
import { ELEMENTS, isElementType } from '../../content/index.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { findStep, stepSnapshot } from '../../store/repositories/trails.repo.js';
import type { Store } from '../../store/store.js';
import { hasAccess, RUN_ACCESS, type Actor } from '../actor.js';
import { mayActOn, type TrailsService } from './trails.service.js';
import { storedSnapshot, type BitSnapshot } from './step.js';
import type { StepPayload } from './shapes.js';

export type { StepPayload } from './shapes.js';

export class StepFormService {
  constructor(
    private readonly store: Store,
    private readonly trails: TrailsService,
  ) {}

  async payload(actor: Actor, input: { trail_id: string }): Promise<StepPayload> {
    const view = await this.trails.get(actor, input);
    const flow = await findFlow(this.store.db, view.flow_id);
    const current = view.current_step;
    // A step's snapshot never changes once entered, so reading it after the view is consistent with it.
    const row = current ? await findStep(this.store.db, current.step_id) : undefined;
    const snapshot = row ? storedSnapshot(this.store.dialect.parseJson<BitSnapshot>(await stepSnapshot(this.store.db, row))) : null;
    const running = view.status === 'running' || view.status === 'waiting_for_person';
    const runs = hasAccess(actor, RUN_ACCESS);
    const acts = runs && running && current !== null && mayActOn(actor, current);
    let step: StepPayload['step'] = null;
    if (current && snapshot) {
      const { bit_body: _markdown, content_format: _format, elements, ...rest } = current;
      step = {
        ...rest,
        body: snapshot.body.children,
        elements: elements.map((e) => ({ ...e, answer_rule: isElementType(e.type) && ELEMENTS[e.type].stepType !== null ? ELEMENTS[e.type].answerRule : null })),
      };
    }
    return {
      trail: { trail_id: view.trail_id, trail_title: view.trail_title, flow_id: view.flow_id, flow_title: flow?.title ?? '', status: view.status, trail_context: view.trail_context },
      step,
      may: { answer: acts, advance: acts, transfer: runs && running, cancel: runs && running },
    };
  }
}
