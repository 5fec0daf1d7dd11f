/**
 * Finished trails archived by age (issue 31): a team's completed and cancelled trails leave list_trails (and so
 * "my trails") once their last change is older than the age the operator chose, so the lists people read stay the
 * size of the work under way. Archiving moves nothing and deletes nothing: get_trail still answers an archived
 * trail with its steps, answers and events, its history and the account's event log keep it, and list_trails with
 * include_archived lists it. The inbox never held finished trails.
 *
 * Every `waymark serve` process runs the archiver when WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS is set (off by default);
 * `waymark trails archive --older-than 90d` runs one pass by hand. Passes in several processes at once are safe
 * (archive.repo.ts). An archive is the server's upkeep, not a person's change: it records no event, as no trail's
 * content or state changes.
 */
import type { Logger } from 'pino';
import { archiveFinishedBefore } from '../../store/repositories/archive.repo.js';
import type { Store } from '../../store/store.js';
import { nowIso } from '../clock.js';

/** Trails archived by one statement: a statement of this size takes milliseconds, so writers wait for it no longer. */
export const ARCHIVE_BATCH = 500;
const DAY_MS = 86_400_000;

export interface ArchiverOptions {
  /** Finished trails unchanged for this long are archived; undefined turns the archiver off. */
  afterMs: number | undefined;
  /** How often a serve process looks for trails to archive. */
  everyMs: number;
}

export function archiverOptionsFromEnv(env: NodeJS.ProcessEnv): ArchiverOptions {
  const days = env.WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS;
  let afterMs: number | undefined;
  if (days !== undefined && days !== '' && days !== '0') {
    const value = Number(days);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`WAYMARK_TRAIL_ARCHIVE_AFTER_DAYS must be a positive number of days, or 0 to archive nothing (got ${days})`);
    afterMs = value * DAY_MS;
  }
  return { afterMs, everyMs: Number(env.WAYMARK_TRAIL_ARCHIVE_EVERY_MS ?? 3_600_000) };
}

/**
 * Archives every finished trail last changed more than `olderThanMs` ago, in batches; answers how many. `stopping`:
 * asked between batches, so that a stopping server ends a long pass after the batch under way.
 */
export async function archiveFinishedTrails(store: Store, olderThanMs: number, stopping: () => boolean = () => false): Promise<number> {
  const at = nowIso();
  const before = new Date(Date.parse(at) - olderThanMs).toISOString();
  let archived = 0;
  for (;;) {
    const count = await archiveFinishedBefore(store.db, before, at, ARCHIVE_BATCH);
    archived += count;
    if (count < ARCHIVE_BATCH || stopping()) return archived;
    // A turn of the event loop between batches: the calls under way go on while a backlog is archived.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The archiver of a serve process: a pass at start, then one every `everyMs`. */
export class TrailArchiver {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly options: ArchiverOptions,
    private readonly logger?: Logger,
  ) {}

  start(): void {
    const afterMs = this.options.afterMs;
    if (afterMs === undefined) return;
    const loop = () => {
      this.running = archiveFinishedTrails(this.store, afterMs, () => this.stopped)
        .then((count) => {
          if (count > 0) this.logger?.info({ archived: count }, 'finished trails archived');
        })
        .catch((err: unknown) => this.logger?.error({ err }, 'archiving finished trails failed'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.options.everyMs).unref();
        });
    };
    loop();
  }

  /** Ends the archiver after the batch under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
