/** The Trails page's answers (issue 28): a page of search_trails, and flow_report. Every door and the web import these. */
import { z } from 'zod';
import { TRAIL_STATUSES, type TrailStatus } from '../../store/enums.js';
import { trailSummaryShape } from './shapes.js';

/** The Trails page's filters as search_trails and export_trails take them (the operations' zod input is their check). */
export interface TrailSearchInput {
  flow_id?: string;
  status?: TrailStatus[];
  waiting_for_me?: boolean;
  started_by_id?: string;
  started_since?: string;
  started_until?: string;
  q?: string;
  cursor?: string;
  limit?: number;
}

/** A trail as the Trails page lists it: list_trails' summary with its flow's title. */
export const foundTrailShape = trailSummaryShape.extend({ flow_title: z.string() });
export type FoundTrail = z.infer<typeof foundTrailShape>;

export const trailSearchPageShape = z.object({
  trails: z.array(foundTrailShape),
  next_cursor: z.string().nullable(),
  searched_back_to: z
    .string()
    .nullable()
    .describe(
      'Set when this page stopped at the most trails one page examines before it was full: the last change of the oldest trail examined. Older trails may match too; next_cursor continues the search from there, or narrow the filters (a flow, a date range).',
    ),
  examined_per_page: z.number().int().describe('The most trails one page examines, newest change first.'),
});
export type TrailSearchPage = z.infer<typeof trailSearchPageShape>;

/** Time spent in one step (bit) of a flow, over the report's window. */
export const stepTimeShape = z.object({
  bit_id: z.string(),
  bit_title: z.string().nullable().describe('The bit\'s title as the latest of these steps entered it.'),
  steps: z.number().int().describe('Steps of this bit left in the window (at most flow_report\'s steps_per_bit_limit, the most recent).'),
  median_ms: z.number().int(),
  p90_ms: z.number().int().describe('90th percentile; both by linear interpolation between the nearest ranks (as a spreadsheet\'s PERCENTILE.INC).'),
});
export type StepTime = z.infer<typeof stepTimeShape>;

export const flowReportShape = z.object({
  flow_id: z.string(),
  flow_title: z.string(),
  trails_by_status: z
    .object(Object.fromEntries(TRAIL_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof TRAIL_STATUSES)[number], z.ZodNumber>)
    .describe('Of the trails counted: all of the flow\'s that you can see, or its most recently changed counted_trails_limit when all_counted is false.'),
  counted_trails: z.number().int(),
  counted_trails_limit: z.number().int(),
  all_counted: z.boolean(),
  step_times: z.array(stepTimeShape).describe('Per bit, in the order the trails reach them (their earliest step number), then by title.'),
  window: z.object({
    trails_examined: z.number().int().describe('Trails whose steps were counted: the flow\'s most recently changed, at most trails_limit.'),
    trails_limit: z.number().int(),
    steps_limit: z.number().int().describe('The most steps counted in all, the latest trails\' first.'),
    steps_per_bit_limit: z.number().int(),
    description: z.string().describe('The window in a sentence, for a person.'),
  }),
});
export type FlowReport = z.infer<typeof flowReportShape>;

/** A download the REST door serves as a file (RestRoute.file): its text, and the cursor of the rest, if any. */
export const fileAnswerShape = z.object({
  text: z.string(),
  next_cursor: z.string().nullable().describe('Set when the file holds only the first part: pass it as cursor for the next (the REST answer\'s Link header, rel "next").'),
});
