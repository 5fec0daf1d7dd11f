/**
 * The overdue scheduler (issue 27): in every serving process, on either engine, every WAYMARK_SCHEDULER_POLL_MS
 * it finds open trails whose current step or whose own due time has passed and that were not reminded, a bounded
 * batch at a time, and records one reminder for each: step_overdue to whoever the step waits for, trail_overdue
 * to the trail's starter and whoever has its current step.
 *
 * Why a state change and not a job queue or a lease: the reminder is a fact of the trail (step_reminded,
 * due_reminded), so the claim is that fact's own conditional update, `SET step_reminded = 1 WHERE ... AND
 * step_reminded = 0`, in the same transaction as the notice it records. Of any number of processes (workers of one
 * `serve`, machines on one PostgreSQL) that read the same trail, exactly one update matches the row; the others
 * match none and record nothing. A process that dies mid-transaction leaves the flag unset and the notice
 * unrecorded, so the next round does it: each reminder fires once, and no lease, lock table or job runner is
 * needed (none could make it more exact, and each would be one more thing to hand-roll or run).
 */
import type { Logger } from 'pino';
import type { SchedulerConfig } from '../../config.js';
import * as overdue from '../../store/repositories/overdue.repo.js';
import type { Store, Tx } from '../../store/store.js';
import { notify, type Recipients } from './record.js';

/** Trails reminded per kind per round; a longer backlog goes on in the next round, at once. */
const BATCH = 50;

export class OverdueScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly options: SchedulerConfig,
    private readonly logger?: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    const loop = () => {
      this.running = this.tick()
        .catch((err: unknown) => {
          this.logger?.error({ err }, 'overdue round failed');
          return 0;
        })
        .then((found) => {
          if (!this.stopped) this.timer = setTimeout(loop, found >= BATCH ? 0 : this.options.pollMs).unref();
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round: the overdue steps, then the overdue trails; answers the larger of the two counts found. */
  async tick(): Promise<number> {
    const now = new Date().toISOString();
    const steps = await overdue.overdueSteps(this.store.db, now, BATCH);
    for (const trail of steps) {
      if (this.stopped) break;
      await this.store.transaction((tx) => this.remindStep(tx, trail));
    }
    const trails = await overdue.overdueTrails(this.store.db, now, BATCH);
    for (const trail of trails) {
      if (this.stopped) break;
      await this.store.transaction((tx) => this.remindTrail(tx, trail));
    }
    return Math.max(steps.length, trails.length);
  }

  /** The step's reminder, if this process wins its claim: to its assignee, else its group, else the trail's starter. */
  private async remindStep(tx: Tx, trail: overdue.OverdueTrail): Promise<void> {
    if (!(await overdue.claimStepReminder(tx, trail))) return;
    const to: Recipients = trail.step_assignee ? { principalIds: [trail.step_assignee] } : trail.step_group ? { groupId: trail.step_group } : { principalIds: [trail.started_by] };
    await notify(tx, trail.account_id, to, { kind: 'step_overdue', trailId: trail.id, stepId: trail.current_step_id, actorId: null, summary: await this.summary(tx, trail, trail.step_due_at) });
  }

  /** The trail's reminder, if this process wins its claim: to its starter and whoever has its current step. */
  private async remindTrail(tx: Tx, trail: overdue.OverdueTrail): Promise<void> {
    if (!(await overdue.claimTrailReminder(tx, trail))) return;
    const to: Recipients = { principalIds: [trail.started_by, ...(trail.step_assignee ? [trail.step_assignee] : [])], groupId: trail.step_assignee ? null : trail.step_group };
    await notify(tx, trail.account_id, to, { kind: 'trail_overdue', trailId: trail.id, stepId: trail.current_step_id, actorId: null, summary: await this.summary(tx, trail, trail.due_at) });
  }

  private async summary(tx: Tx, trail: overdue.OverdueTrail, due: string | null) {
    const titles = await overdue.reminderTitles(tx, trail);
    return { trail_title: trail.title ?? titles.flow_title, flow_title: titles.flow_title, step_title: titles.step_title, due };
  }
}
