/**
 * What a trail call may bring, bounded before any work grows with it (issue 16, finding 7, and finding 1:
 * a 10 MB trail_context made ajv report two errors per array item, and the answer 109 MB). The bounds
 * are ours (LIMITS, block "hostile-trails"); describe_platform lists them.
 */
import { LIMITS } from '../../limits/index.js';
import { pathText, validationError } from '../../errors.js';
import { describeOverrun, overBudget } from '../json-budget.js';
import type { SubmittedAnswer } from './step.js';

/** One call's answers, and each answer's value, bounded in bytes before any is checked (LIMITS.answer*). */
export function assertAnswerSizes(data: SubmittedAnswer[]): void {
  if (overBudget(data, { bytes: LIMITS.answersPerCallBytes })) {
    throw validationError([{ path: 'data', message: `over ${LIMITS.answersPerCallBytes} bytes as JSON in one call` }], undefined, { limit: 'answersPerCallBytes', max: LIMITS.answersPerCallBytes });
  }
  data.forEach((answer, i) => {
    if (overBudget(answer.value, { bytes: LIMITS.answerValueBytes })) {
      throw validationError([{ path: pathText(['data', i, 'value']), message: `over ${LIMITS.answerValueBytes} bytes as JSON` }], undefined, { limit: 'answerValueBytes', max: LIMITS.answerValueBytes });
    }
  });
}

/**
 * A trail_context is kept with the trail and answered by every trail tool, and validated with ajv, whose
 * work grows with it: its size is bounded before anything else (LIMITS.trailContext*), with or without a schema.
 */
export function assertContextSize(context: unknown): void {
  const overrun = overBudget(context ?? {}, { bytes: LIMITS.trailContextBytes, keys: LIMITS.trailContextKeys, arrayItems: LIMITS.trailContextArrayItems, depth: LIMITS.trailContextDepth });
  if (overrun) {
    throw validationError([{ path: overrun.path === '' ? 'trail_context' : `trail_context.${overrun.path}`, message: `too large: ${describeOverrun('trail_context', overrun)}` }], undefined, {
      limit: overrun.limit,
      max: overrun.max,
    });
  }
}
