/**
 * The Trails page (issue 28): every trail the caller may see (list_trails' visibility), filtered and searched, as a
 * page or as CSV, and a flow's report: its trails by status and the time spent in each of its steps.
 */
import { WaymarkError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { TRAIL_STATUSES, type TrailStatus } from '../../store/enums.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import { flowTitles } from '../../store/repositories/inbox.repo.js';
import { flowStatusCounts, recentLeftSteps, searchTrails, type LeftStep, type SearchRow, type TrailSearchFilter } from '../../store/repositories/trail-search.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import type { PeopleService } from '../auth/people.service.js';
import { trailSummaries } from './summary.js';
import { csvText } from './csv.js';
import { TRAIL_STATUS_WORDS } from './status-words.js';
import type { FlowReport, FoundTrail, StepTime, TrailSearchInput, TrailSearchPage } from './trail-search-shapes.js';

/** A CSV download: its text, and the cursor of the rest when it holds only the first LIMITS.trailExportRows. */
export interface CsvFile {
  text: string;
  next_cursor: string | null;
}

const CSV_HEADER = ['Trail', 'Title', 'Flow', 'Status', 'Current step', 'Started by', 'Started (UTC)', 'Last change (UTC)'];

/**
 * The q-th quantile of sorted values by linear interpolation between the nearest ranks (R's type 7, a spreadsheet's
 * PERCENTILE.INC): the median of 1, 2, 3, 4 is 2.5.
 */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** Time spent per bit: of each bit, the most recent `perBit` steps (by when they were left). */
export function stepTimes(steps: readonly LeftStep[], perBit: number): StepTime[] {
  const byBit = new Map<string, LeftStep[]>();
  for (const step of steps) byBit.set(step.bit_id, [...(byBit.get(step.bit_id) ?? []), step]);
  const times = [...byBit.entries()].map(([bitId, all]) => {
    const recent = [...all].sort((a, b) => (a.left_at < b.left_at ? 1 : a.left_at > b.left_at ? -1 : 0)).slice(0, perBit);
    const spent = recent.map((s) => Date.parse(s.left_at) - Date.parse(s.entered_at)).sort((a, b) => a - b);
    return {
      order: Math.min(...all.map((s) => Number(s.seq))),
      time: { bit_id: bitId, bit_title: recent[0].bit_title, steps: recent.length, median_ms: Math.round(quantile(spent, 0.5)), p90_ms: Math.round(quantile(spent, 0.9)) },
    };
  });
  return times.sort((a, b) => a.order - b.order || (a.time.bit_title ?? '').localeCompare(b.time.bit_title ?? '')).map((t) => t.time);
}

export class TrailSearchService {
  constructor(
    private readonly store: Store,
    private readonly people: PeopleService,
  ) {}

  /** A page of the trails under the filters, newest change first (see trail-search.repo.ts for its bounds). */
  async search(actor: Actor, input: TrailSearchInput): Promise<TrailSearchPage> {
    const filter = await this.filterOf(actor, input);
    const page = await searchTrails(this.store.db, this.store.dialect, actor, filter, { limit: input.limit ?? LIMITS.defaultPageSize, cursor: input.cursor, window: LIMITS.trailSearchWindow });
    return { trails: await this.found(page.rows), next_cursor: page.next_cursor, searched_back_to: page.searched_back_to, examined_per_page: LIMITS.trailSearchWindow };
  }

  /**
   * The same trails as CSV with a header row: at most LIMITS.trailExportRows of them, read a window at a time and
   * examining at most ten times as many, newest change first; next_cursor then continues the export.
   */
  async csv(actor: Actor, input: Omit<TrailSearchInput, 'limit'>): Promise<CsvFile> {
    const filter = await this.filterOf(actor, input);
    const rows: SearchRow[] = [];
    let cursor = input.cursor;
    let examined = 0;
    for (;;) {
      const page = await searchTrails(this.store.db, this.store.dialect, actor, filter, { limit: Math.min(LIMITS.pageSize * 10, LIMITS.trailExportRows - rows.length), cursor, window: LIMITS.trailSearchWindow });
      rows.push(...page.rows);
      examined += LIMITS.trailSearchWindow;
      cursor = page.next_cursor ?? undefined;
      if (!cursor || rows.length >= LIMITS.trailExportRows || examined >= LIMITS.trailExportRows * 10) break;
    }
    const trails = await this.found(rows);
    const starters = [...new Set(trails.map((t) => t.started_by))];
    const names = starters.length > 0 ? await this.people.list(actor, { principal_ids: starters }) : { people: [] };
    const name = new Map(names.people.map((p) => [p.principal_id, p.name]));
    const lines = trails.map((t) => [
      t.trail_id,
      t.trail_title,
      t.flow_title,
      TRAIL_STATUS_WORDS[t.status],
      t.current_bit_title,
      name.get(t.started_by) ?? t.started_by,
      t.started_date_time_utc,
      t.last_modified_date_time_utc,
    ]);
    return { text: csvText([CSV_HEADER, ...lines]), next_cursor: cursor ?? null };
  }

  /** The flow's trails by status, and the time spent in each of its steps over a recent window. */
  async report(actor: Actor, input: { flow_id: string }): Promise<FlowReport> {
    const db = this.store.db;
    const flow = await this.visibleFlow(actor, input.flow_id);
    const [counts, recent] = await Promise.all([
      flowStatusCounts(db, actor, flow.id, LIMITS.flowReportCountedTrails),
      recentLeftSteps(db, actor, flow.id, { trails: LIMITS.flowReportTrails, steps: LIMITS.flowReportSteps }),
    ]);
    const byStatus = Object.fromEntries(TRAIL_STATUSES.map((s) => [s, counts.get(s) ?? 0])) as Record<TrailStatus, number>;
    const counted = TRAIL_STATUSES.reduce((sum, s) => sum + byStatus[s], 0);
    return {
      flow_id: flow.id,
      flow_title: flow.title,
      trails_by_status: byStatus,
      counted_trails: counted,
      counted_trails_limit: LIMITS.flowReportCountedTrails,
      all_counted: counted < LIMITS.flowReportCountedTrails,
      step_times: stepTimes(recent.steps, LIMITS.flowReportStepsPerBit),
      window: {
        trails_examined: recent.trails,
        trails_limit: LIMITS.flowReportTrails,
        steps_limit: LIMITS.flowReportSteps,
        steps_per_bit_limit: LIMITS.flowReportStepsPerBit,
        description: `Time spent is figured from the steps left in the flow's ${recent.trails === 1 ? 'one trail' : `${recent.trails.toLocaleString('en')} most recently changed trails`} (at most ${LIMITS.flowReportTrails.toLocaleString('en')}), the most recent ${LIMITS.flowReportStepsPerBit.toLocaleString('en')} steps of each bit; a step still under way is not counted.`,
      },
    };
  }

  private async visibleFlow(actor: Actor, flowId: string) {
    const flow = await findFlow(this.store.db, flowId, actor);
    if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${flowId} is visible to you: list_flows shows the flows you can see.`, { flow_id: flowId });
    return flow;
  }

  private async filterOf(actor: Actor, input: Omit<TrailSearchInput, 'limit'>): Promise<TrailSearchFilter> {
    if (input.flow_id) await this.visibleFlow(actor, input.flow_id);
    const instant = (text: string | undefined) => (text === undefined ? undefined : new Date(text).toISOString());
    const q = input.q?.trim();
    return {
      flowId: input.flow_id,
      statuses: input.status,
      waitingFor: input.waiting_for_me ? { principalId: actor.principalId, isPerson: actor.kind === 'person' } : undefined,
      startedBy: input.started_by_id,
      startedSince: instant(input.started_since),
      startedUntil: instant(input.started_until),
      text: q ? q : undefined,
    };
  }

  private async found(rows: SearchRow[]): Promise<FoundTrail[]> {
    const db = this.store.db;
    const [summaries, flows] = await Promise.all([trailSummaries(db, rows), flowTitles(db, [...new Set(rows.map((t) => t.flow_id))])]);
    return summaries.map((t) => ({ ...t, flow_title: flows.get(t.flow_id) ?? '' }));
  }
}
