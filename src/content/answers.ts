/**
 * Checking a submit_step_data answer against the element it names (CONTRACT.md, "Answer values"): the
 * element_type, when given, must be the element's step type name (CONTRACT.md: it may be omitted, the server knows
 * each element's type), and the inner value must fit the element's config.
 */
import type { ValidationIssue } from '../errors.js';
import { ELEMENTS } from './elements/index.js';
import { indexBody, type BodyIndex } from './body-index.js';
import type { SlateBody } from './slate.js';

export interface StepAnswer {
  element_id: string;
  element_type?: string;
  /** The inner value (what `{value: <inner>}` wraps). */
  value: unknown;
}

export type StepAnswerResult =
  | { ok: true; element_id: string; element_type: string; value: unknown; warnings: string[] }
  | { ok: false; element_id: string; issues: ValidationIssue[] };

/**
 * Validates one answer against the body of the step's bit, or that body's index (a caller checking several answers
 * indexes it once); issues are for ANSWER_INVALID's details.
 */
export function checkStepAnswer(body: SlateBody | BodyIndex, answer: StepAnswer): StepAnswerResult {
  const found = indexBody(body).get(answer.element_id);
  const fail = (message: string, path = 'element_id'): StepAnswerResult => ({
    ok: false,
    element_id: answer.element_id,
    issues: [{ path, message }],
  });
  if (!found || (found.kind !== 'element' && found.kind !== 'item')) return fail('this step has no element with that id');
  const element = found.kind === 'item' ? found.element : found.node;
  const def = ELEMENTS[element.type];
  // The items of some types are answered each on its own, by its id (a check-list's, as CheckListItem); the
  // items of the others are options, the value of the element's answer.
  if (found.kind === 'item' && def.answered !== 'items') return fail(`answer the ${element.type} by its own id, with the option id as value`);
  if (def.stepType === null) return fail(`a ${element.type} records nothing and cannot be answered`);
  if (found.kind === 'element' && def.answered === 'items') return fail(`answer each ${element.type} item by its own id (${def.stepType})`);
  if (answer.element_type !== undefined && answer.element_type !== def.stepType) return fail(`element ${answer.element_id} is a ${def.stepType}`, 'element_type');
  const result = def.checkAnswer(answer.value, element);
  if (!result.ok) return { ok: false, element_id: answer.element_id, issues: result.issues };
  return { ok: true, element_id: answer.element_id, element_type: def.stepType, value: result.value, warnings: result.warnings };
}
