import { z } from 'zod';
import { LIMITS } from '../../limits/index.js';
import { RUN_ACCESS } from '../../services/actor.js';
import { flowReportShape } from '../../services/trails/trail-search-shapes.js';
import { recordId } from '../common-schemas.js';
import { defineOperation } from '../operation.js';

/**
 * A flow's report on the Trails page (issue 28): "nothing shows where trails of a flow wait or how long steps take".
 * An operation of the web app and REST, not an MCP tool.
 */
export const flowReportOperation = defineOperation({
  name: 'flow_report',
  title: 'A flow\'s report',
  description: `How many of the flow's trails you can see are in each status, and per step (bit) the median and 90th percentile of the time spent in it, from the steps left in the flow's ${LIMITS.flowReportTrails} most recently changed trails (the most recent ${LIMITS.flowReportStepsPerBit} per bit; window says so). Errors: FLOW_NOT_FOUND.`,
  flags: { W: false, D: false, I: true },
  access: RUN_ACCESS,
  rest: { method: 'get', path: '/flows/:flow_id/report', operationId: 'getFlowReport' },
  mcp: false,
  input: z.strictObject({ flow_id: recordId() }),
  output: flowReportShape,
  run: ({ actor, services }, input) => services.trailSearch.report(actor, input),
});
