/**
 * Which of a step's connections are open given its answers (authoring-interface.md, Body syntax rule 4): the one
 * rule advance_trail follows and the step form shows live from unsaved answers (web/step-form), so the form's Next
 * block says what Continue will do. Pure (types only), so the web bundle imports it as it is.
 */
import type { Condition } from '../bits/shapes.js';

/** An answer as the rule reads it: its value (the latest answer of the element or check-list item). */
export interface LatestAnswer {
  element_id: string;
  element_type: string;
  value: unknown;
}

/**
 * A connection's condition given the answers so far: an option condition holds when the dropdown's or
 * radio-button's latest answer is one of its options; a check-list condition when the item's latest answer equals
 * it, an unanswered item counting as unchecked.
 */
export function conditionHolds(condition: Condition | null, latest: ReadonlyMap<string, Pick<LatestAnswer, 'value'>>): boolean {
  if (!condition) return true;
  const answer = latest.get(condition.element_id)?.value;
  if ('option_ids' in condition) return typeof answer === 'string' && condition.option_ids.includes(answer);
  return (answer === true) === condition.checked;
}

/** The connections whose condition holds, in their order. */
export function openConnections<C extends { condition: Condition | null }>(connections: readonly C[], latest: ReadonlyMap<string, Pick<LatestAnswer, 'value'>>): C[] {
  return connections.filter((c) => conditionHolds(c.condition, latest));
}

/**
 * What leaving the step does with these open connections (advance_trail): none completes the trail, one is
 * followed, several wait for the caller to choose one.
 */
export type NextMove<C> = { kind: 'complete' } | { kind: 'follow'; connection: C } | { kind: 'choose'; connections: C[] };

export function nextMove<C>(open: readonly C[]): NextMove<C> {
  if (open.length === 0) return { kind: 'complete' };
  if (open.length === 1) return { kind: 'follow', connection: open[0] as C };
  return { kind: 'choose', connections: [...open] };
}
