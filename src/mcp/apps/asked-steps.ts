/**
 * Which steps a client session has already asked its person for by elicitation (issue 28: a person was asked to
 * fill a step again on every get_trail an agent made of it). The rule a person expects:
 *
 * - a step is asked for while it waits for the person's answers: it has none yet, or required ones are missing
 *   (a step answered and waiting for advance_trail is not asked again);
 * - a session asks once per step and state of its answers: after an accepted form, a decline, a cancel or a client
 *   that failed to show it, the same step is not asked again until it changes (another step is entered, or its
 *   answers change by another hand: the web app, another session, submit_step_data).
 *
 * Kept in memory per MCP server instance, which is one client session (stdio, in-memory; a stateless HTTP
 * request never elicits: client-features.ts), and keyed by account, principal and trail, so nothing one
 * principal was asked decides what another is.
 */
import type { Actor } from '../../services/actor.js';
import type { StepView } from '../../services/trails/shapes.js';

/** Trails remembered per session; the oldest is forgotten first (a forgotten step is at worst asked once more). */
const KEPT = 500;

export type AskedStep = Pick<StepView, 'step_id' | 'answers' | 'required_missing'>;

/** The step and the state of its answers: what "the step changed" compares. */
function markOf(step: AskedStep): string {
  return [step.step_id, ...step.answers.map((a) => `${a.element_id}@${a.answered_date_time_utc}`).sort()].join('\u0000');
}

/** The step holds answers and none it requires is missing: it waits for advance_trail, not for the form. */
export function isAnswered(step: AskedStep): boolean {
  return step.answers.length > 0 && step.required_missing.length === 0;
}

export class AskedSteps {
  private readonly marks = new Map<string, string>();

  private keyOf(actor: Actor, trailId: string): string {
    return `${actor.accountId}\u0000${actor.principalId}\u0000${trailId}`;
  }

  /** Whether this session should ask the person for `step` of the trail now (the rule above). */
  shouldAsk(actor: Actor, trailId: string, step: AskedStep): boolean {
    return !isAnswered(step) && this.marks.get(this.keyOf(actor, trailId)) !== markOf(step);
  }

  /** The step as it stands after asking (after the answers a form recorded, if it recorded any). */
  remember(actor: Actor, trailId: string, step: AskedStep): void {
    const key = this.keyOf(actor, trailId);
    this.marks.delete(key);
    this.marks.set(key, markOf(step));
    if (this.marks.size > KEPT) this.marks.delete(this.marks.keys().next().value as string);
  }
}

const sessions = new WeakMap<object, AskedSteps>();

/** The memory of one session, by the server instance that serves it. */
export function askedStepsOf(session: object): AskedSteps {
  let asked = sessions.get(session);
  if (!asked) sessions.set(session, (asked = new AskedSteps()));
  return asked;
}
