/**
 * Which advance a trail's step change was meant for, when the caller did not say (issue 24, finding 9). Two
 * `advance_trail` calls sent at once from one step both meant to leave that step, but the row lock only ordered
 * them: the second left the step the first had entered, and a step was skipped unseen (10 of 10 times).
 *
 * An advance without `expected_step_id` now means "the step that was current when my call arrived". Two checks
 * give that: this watch, which counts the moves of each trail that this process committed while an advance of it
 * was under way (exact within a process, on both engines), and a read of the trail's current step before the call
 * waits for the trail's lock, for calls served by different processes (on PostgreSQL it reads beside a running
 * advance; on SQLite one process has one connection, so there the read waits behind it and the watch decides).
 * Across processes "arrived" is when that read ran: a call whose read comes after the other call committed is
 * taken as sent after it (measured: with two processes, one of the two calls often reaches the store only after
 * the other has committed). A caller that needs certainty there sends expected_step_id.
 */
export interface Arrival {
  /** Whether another call of this process moved the trail since this one arrived. */
  movedSince(): boolean;
  /** This call moved the trail: every other call under way sees it. */
  moved(): void;
  /** The call is over (answered or refused). */
  leave(): void;
}

export class TrailMoves {
  private readonly trails = new Map<string, { moves: number; calls: number }>();

  /** Called as a call arrives, before anything of it waits. */
  arrive(trailId: string): Arrival {
    let entry = this.trails.get(trailId);
    if (!entry) {
      entry = { moves: 0, calls: 0 };
      this.trails.set(trailId, entry);
    }
    const watched = entry;
    watched.calls++;
    let seen = watched.moves;
    let left = false;
    return {
      movedSince: () => watched.moves !== seen,
      moved: () => {
        watched.moves++;
        seen = watched.moves;
      },
      leave: () => {
        if (left) return;
        left = true;
        // Kept only while a call of the trail is under way, so the map holds no more than the calls in flight.
        if (--watched.calls === 0) this.trails.delete(trailId);
      },
    };
  }
}
