/**
 * Shapes several tools share about answering a step: a connection's condition (get_bit's `when`, get_flow's
 * graph, a trail step's connections_available) and an answer's inner value.
 */
export { conditionShape as conditionSchema } from '../../services/bits/shapes.js';
export { answerInnerShape as answerInnerSchema } from '../../services/trails/shapes.js';
