/**
 * A flow as a file of a folder (issue 30): its fields in YAML, its start bit as the bit's file relative to this one.
 * Its graph is not repeated here: it is the connections of its bits. Its review status and whether it is active are
 * not part of it: they are decisions taken in Waymark (review_flow, update_flow), not content.
 */
import type { Priority } from '../../store/enums.js';
import { checkTitle, blankToNull } from '../bits/text-fields.js';
import { assertTrailContextSchema, type TrailContextSchema } from '../flows/trail-context-schema.js';
import { flowFileShape } from './format.js';
import { pathText } from '../../errors.js';
import { problemOf, type FolderProblem } from './problems.js';
import { writeYaml, YamlText } from './yaml-text.js';

export interface FlowRecord {
  id: string;
  title: string;
  description: string | null;
  categories: string[];
  priority: Priority;
  /** The start bit's file, relative to the flow's. */
  start_bit: string;
  trail_context_schema: TrailContextSchema | null;
}

export function writeFlowFile(flow: FlowRecord): string {
  const out: Record<string, unknown> = { id: flow.id, title: flow.title };
  if (flow.description !== null) out.description = flow.description;
  if (flow.categories.length > 0) out.categories = flow.categories;
  out.priority = flow.priority;
  out.start_bit = flow.start_bit;
  if (flow.trail_context_schema !== null) out.trail_context_schema = flow.trail_context_schema;
  return writeYaml(out);
}

export interface ReadFlow extends Omit<FlowRecord, 'id'> {
  id: string | undefined;
  /** The line of start_bit, for a problem with the bit it names. */
  startLine: number;
}

export function readFlowFile(file: string, text: string): ReadFlow | { problems: FolderProblem[] } {
  const parsed = YamlText.parse(file, text, 1);
  if ('problems' in parsed) return parsed;
  const checked = flowFileShape.safeParse(parsed.value ?? {});
  if (!checked.success) {
    return { problems: checked.error.issues.map((issue) => ({ file, line: parsed.yaml.lineOf(issue.path), code: 'VALIDATION_ERROR' as const, message: `${pathText(issue.path) || 'file'}: ${issue.message}` })) };
  }
  const flow = checked.data;
  try {
    return {
      id: flow.id,
      title: checkTitle(flow.title, 'title'),
      description: blankToNull(flow.description ?? null),
      categories: flow.categories ?? [],
      priority: flow.priority ?? 'medium',
      start_bit: flow.start_bit,
      trail_context_schema: flow.trail_context_schema === undefined ? null : assertTrailContextSchema(flow.trail_context_schema),
      startLine: parsed.yaml.lineOf(['start_bit']),
    };
  } catch (error) {
    return { problems: [problemOf(file, error, (e) => parsed.yaml.lineOf([e.code === 'VALIDATION_ERROR' ? 'title' : 'trail_context_schema']))] };
  }
}
