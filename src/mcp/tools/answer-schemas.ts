/**
 * Shapes several tools share about answering a step: a connection's condition (get_bit's `when`, get_flow's
 * graph, a trail step's connections_available) and an answer's inner value.
 */
import { z } from 'zod';

export { conditionShape as conditionSchema } from '../../services/flow-shapes.js';

/**
 * An answer's inner value, `value.value`. Its shape depends on the element type (describe_platform's
 * answer_schema of each type); the element's own rules check it and refuse a wrong one as ANSWER_INVALID,
 * so this schema only advertises the kinds of JSON it may be, and accepts any.
 */
export const answerInnerSchema = z.unknown().meta({
  anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: true }],
  description: 'Shape per element type: describe_platform answer_schema.',
});
