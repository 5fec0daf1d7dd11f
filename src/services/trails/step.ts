/**
 * A trail step as the trail ran it: the bit's snapshot (taken when the step is entered, so a later edit or
 * archive of the bit cannot change the trail's record), its answerable elements, the check of submitted
 * answers against the element definitions (content/elements: one definition per type, never a second set
 * of answer rules), and which connections are available given the answers so far.
 */
import { answeredByItems, checkStepAnswer, collectConnections, ELEMENTS, indexBody, isElementType, listElements, nodeInventory, type SlateBody } from '../../content/index.js';
import { joinPath, pathText, type ValidationIssue } from '../../errors.js';
import type { ReferenceLink } from '../references/shapes.js';
import type { StepElement } from './shapes.js';
import type { BitTable } from '../../store/schema.js';
import { connectionNodesById, connectionOf } from '../bits/view.js';
import type { Condition, Connection } from '../bits/shapes.js';
import type { RevisionState } from '../revisions/codec.js';
import { bitRowOf, passThrough } from '../revisions/rows.js';
import type { LatestAnswer } from './conditions.js';

// The connection rule lives in conditions.ts, pure, so the step form runs the same one in the browser.
export { conditionHolds, type LatestAnswer } from './conditions.js';

export interface BitSnapshot {
  bit_id: string;
  title: string;
  abstract: string | null;
  description: string | null;
  categories: string[];
  complexity: BitTable['complexity'];
  human_required: boolean;
  /** Who does the step (bits.assignee, migration 017): "starter", "person:<id>", "group:<id>", "context:<field>"; null: anyone. */
  assignee: string | null;
  /** How long the step should take, an ISO 8601 duration; null: no due time of its own. */
  expected_duration: string | null;
  body: SlateBody;
  references: ReferenceLink[];
  connections: Connection[];
  last_modified_date_time_utc: string;
}

export function takeSnapshot(
  bit: BitTable,
  parse: <T>(raw: unknown) => T,
  references: ReferenceLink[],
  rows: Array<{ id: string; target_bit_id: string; sort_order: number }>,
): BitSnapshot {
  const body = parse<SlateBody>(bit.body);
  const nodes = connectionNodesById(collectConnections(body));
  return {
    bit_id: bit.id,
    title: bit.title,
    abstract: bit.abstract,
    description: bit.description,
    categories: parse<string[]>(bit.categories),
    complexity: bit.complexity,
    human_required: bit.human_required === 1,
    // Revisions and snapshots kept before migration 017 have neither.
    assignee: bit.assignee ?? null,
    expected_duration: bit.expected_duration ?? null,
    body,
    references,
    connections: rows.map((row) => connectionOf(row, nodes.get(row.id))),
    last_modified_date_time_utc: bit.updated_at,
  };
}

/** A snapshot of a bit revision (an approved flow version's): its connections are its body's, in body order. */
export function snapshotOfRevision(bitId: string, state: RevisionState): BitSnapshot {
  const { row, references } = bitRowOf(bitId, '', state);
  const rows = collectConnections(row.body as SlateBody).flatMap((node, i) => (node.id === null ? [] : [{ id: node.id, target_bit_id: node.target_bit_id, sort_order: i }]));
  return takeSnapshot(row, passThrough, references, rows);
}

/** The interactive elements of a snapshot, in body order, named as submit_step_data names them. */
export function stepElements(body: SlateBody): StepElement[] {
  return listElements(body).map((e) => ({
    element_id: e.id,
    type: e.type,
    element_type: e.step_type,
    config: e.props,
    ...(e.items ? { items: e.items } : {}),
    required: e.required,
  }));
}

/** Whether a required element's answer counts: something chosen or written (an empty text or list does not). */
function filled(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** A required element or item without a counting answer, with the label a person reads (null when it has none). */
export interface MissingAnswer {
  element_id: string;
  label: string | null;
}

/**
 * Required elements without a counting answer: elements with `required: true` need a non-empty answer;
 * a required item answered on its own (a check-list's) must be answered `true` (checked). A default (`checked` on an item) is what
 * the app shows first, not an answer given on this trail.
 */
export function missingRequired(elements: StepElement[], latest: Map<string, LatestAnswer>): MissingAnswer[] {
  const missing: MissingAnswer[] = [];
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  for (const element of elements) {
    if (answeredByItems(element.type)) {
      const field = (isElementType(element.type) ? ELEMENTS[element.type].items?.textField : undefined) ?? 'text';
      for (const item of element.items ?? []) {
        if (item.required === true && latest.get(item.id)?.value !== true) missing.push({ element_id: item.id, label: text(item[field]) });
      }
    } else if (element.required && !filled(latest.get(element.element_id)?.value)) {
      missing.push({ element_id: element.element_id, label: text(element.config.label) });
    }
  }
  return missing;
}

/**
 * A step's snapshot as stored: snapshots taken before the connection's condition had one name kept it as `when`
 * (the body syntax's word); they are read with it as `condition`. A stored snapshot never changes.
 */
export function storedSnapshot(stored: BitSnapshot): BitSnapshot {
  for (const c of stored.connections as Array<Connection & { when?: Condition | null }>) {
    if (c.condition !== undefined) continue;
    c.condition = c.when ?? null;
    delete c.when;
  }
  return stored;
}

export interface SubmittedAnswer {
  element_id: string;
  /** Optional (CONTRACT.md): the element's type is known; when given it must match. */
  element_type?: string;
  value: unknown;
}

export interface CheckedAnswer {
  element_id: string;
  element_type: string;
  value: unknown;
  warnings: string[];
}

export interface AnswerCheck {
  /** Element ids the step does not hold (ELEMENT_NOT_FOUND). */
  unknown: string[];
  /** Every problem of the other answers (ANSWER_INVALID), each with the data index and element id. */
  issues: Array<ValidationIssue & { element_id: string }>;
  accepted: CheckedAnswer[];
}

/**
 * Checks every answer of a call against the snapshot's elements (content's checkStepAnswer: the element
 * definitions' rules); nothing is stored unless all pass. Ids that name no element or item of the step are
 * set apart (ELEMENT_NOT_FOUND); every other problem is an issue with its place in `data`.
 */
export function checkAnswers(body: SlateBody, data: SubmittedAnswer[]): AnswerCheck {
  const inventory = nodeInventory(body);
  // Indexed once for the whole call, not once per answer.
  const index = indexBody(body);
  const result: AnswerCheck = { unknown: [], issues: [], accepted: [] };
  data.forEach((answer, i) => {
    const entry = inventory.get(answer.element_id);
    const answerable = entry !== undefined && entry.type !== 'a' && entry.type !== 'img' && entry.type !== 'bit-connection';
    if (!answerable) {
      result.unknown.push(answer.element_id);
      return;
    }
    const checked = checkStepAnswer(index, answer);
    if (checked.ok) {
      result.accepted.push({ element_id: answer.element_id, element_type: checked.element_type, value: checked.value, warnings: checked.warnings });
      return;
    }
    for (const problem of checked.issues) {
      // Value problems are placed inside the submitted `{value: <inner>}`; the others on the entry's field.
      const path = joinPath(pathText(problem.path === 'value' || /^value[.[]/.test(problem.path) ? ['data', i, 'value'] : ['data', i]), problem.path);
      result.issues.push({ path, message: problem.message, element_id: answer.element_id });
    }
  });
  return result;
}
