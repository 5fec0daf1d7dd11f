/**
 * Which advance a trail's step change was meant for, when the caller did not say (issue 24, finding 9). Two
 * `advance_trail` calls sent at once from one step both meant to leave that step, but the row lock only ordered
 * them: the second left the step the first had entered, and a step was skipped unseen (10 of 10 times).
 *
 * An advance without `expected_step_id` now means "the step that was current when my call arrived". Within a
 * process that is exact: every call is stamped as it arrives at its door (arrivals.ts, before its token is even
 * looked up), every move of a trail is stamped in the same order, and a call refuses to leave a step entered after
 * its stamp. Across processes the advance also reads the trail's current step before it waits for the trail's lock;
 * a call whose read comes after the other call committed is taken as sent after it (with two processes one of two
 * calls sent at once often reaches the store only then), so a caller that needs certainty there sends
 * expected_step_id.
 */
import { nextArrival } from '../arrivals.js';

/** Trails whose last move is remembered: older moves are older than any call still under way. */
const REMEMBERED = 10_000;

export class TrailMoves {
  private readonly lastMove = new Map<string, number>();

  /** Whether the trail moved (in this process) after a call stamped `arrival` arrived. */
  movedSince(trailId: string, arrival: number): boolean {
    return (this.lastMove.get(trailId) ?? 0) > arrival;
  }

  /** The trail moved now. */
  moved(trailId: string): void {
    this.lastMove.delete(trailId);
    this.lastMove.set(trailId, nextArrival());
    if (this.lastMove.size > REMEMBERED) this.lastMove.delete(this.lastMove.keys().next().value as string);
  }
}
