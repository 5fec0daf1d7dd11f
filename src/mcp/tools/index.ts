import type { Tool } from '../tool.js';
import { describePlatformTool } from './describe-platform.js';
import { createFlowTool } from './create-flow.js';
import { getFlowTool } from './get-flow.js';
import { listBitsTool } from './list-bits.js';
import { listFlowsTool } from './list-flows.js';
import { reviewFlowTool } from './review-flow.js';
import { updateFlowTool } from './update-flow.js';

/** Every tool the server offers, in the order tools/list shows them. */
export function allTools(): Tool[] {
  return TOOLS;
}

const TOOLS: Tool[] = [
  describePlatformTool(allTools),
  createFlowTool,
  updateFlowTool,
  reviewFlowTool,
  getFlowTool,
  listFlowsTool,
  listBitsTool,
];
