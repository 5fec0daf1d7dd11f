/**
 * The Trails page's reads (issue 28), bounded so that they stay fast at 100k trails (issue 31): how far one page of
 * a search looks, how long a CSV export is, and the window a flow's report is figured over.
 */
export const TRAIL_SEARCH_LIMITS = {
  /**
   * Trails one page of search_trails examines, newest change first, before it answers: the filters no index serves
   * (a finished status, who started it, when it started, the text) are tested on at most this many rows, so a page
   * costs about the same at 1k trails and at 100k; when the window ends first, the page says how far back it looked
   * and its next_cursor continues from there.
   */
  trailSearchWindow: 2000,
  /** Characters of search_trails' text query. */
  trailSearchQueryLength: 200,
  /** Rows of one CSV export of the trails, newest change first; it says when more match (see the operation). */
  trailExportRows: 5000,
  /** A flow report counts the statuses of this many of the flow's most recently changed trails (all, when it has fewer). */
  flowReportCountedTrails: 10_000,
  /** A flow report figures time spent per step over the steps left in this many of the flow's most recently changed trails … */
  flowReportTrails: 1000,
  /** … at most this many of them in all … */
  flowReportSteps: 20_000,
  /** … and, of each bit, the most recent this many. */
  flowReportStepsPerBit: 1000,
} as const;
