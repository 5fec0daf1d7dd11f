/**
 * One process-wide order of events that matter to concurrent calls: when a call arrived (stamped at its door, before
 * it is authenticated) and when a trail moved. An advance without expected_step_id refuses to leave a step that was
 * entered after it arrived (trails/moves.ts): it could not have meant that step.
 */
let last = 0;

export function nextArrival(): number {
  return ++last;
}
