import type { Tool } from '../tool.js';
import { describePlatformTool } from './describe-platform.js';
import { addBitTool } from './add-bit.js';
import { archiveBitTool } from './archive-bit.js';
import { connectBitsTool } from './connect-bits.js';
import { getBitTool } from './get-bit.js';
import { removeConnectionTool } from './remove-connection.js';
import { updateBitTool } from './update-bit.js';
import { createReferenceTool } from './create-reference.js';
import { getReferenceTool } from './get-reference.js';
import { linkReferenceTool } from './link-reference.js';
import { searchReferencesTool } from './search-references.js';
import { unlinkReferenceTool } from './unlink-reference.js';
import { updateBitReferenceLinkTool } from './update-bit-reference-link.js';
import { updateReferenceTool } from './update-reference.js';
import { createFlowTool } from './create-flow.js';
import { getFlowTool } from './get-flow.js';
import { listBitsTool } from './list-bits.js';
import { listFlowsTool } from './list-flows.js';
import { reviewFlowTool } from './review-flow.js';
import { updateFlowTool } from './update-flow.js';
import { advanceTrailTool } from './advance-trail.js';
import { cancelTrailTool } from './cancel-trail.js';
import { getTrailTool } from './get-trail.js';
import { listTrailsTool } from './list-trails.js';
import { startTrailTool } from './start-trail.js';
import { submitStepDataTool } from './submit-step-data.js';
import { transferStepTool } from './transfer-step.js';

/** Every tool the server offers, in the order tools/list shows them. */
export function allTools(): Tool[] {
  return TOOLS;
}

const TOOLS: Tool[] = [
  describePlatformTool(allTools),
  addBitTool,
  getBitTool,
  updateBitTool,
  archiveBitTool,
  connectBitsTool,
  removeConnectionTool,
  createFlowTool,
  updateFlowTool,
  reviewFlowTool,
  getFlowTool,
  listFlowsTool,
  listBitsTool,
  startTrailTool,
  getTrailTool,
  listTrailsTool,
  submitStepDataTool,
  advanceTrailTool,
  transferStepTool,
  cancelTrailTool,
  createReferenceTool,
  updateReferenceTool,
  getReferenceTool,
  searchReferencesTool,
  linkReferenceTool,
  updateBitReferenceLinkTool,
  unlinkReferenceTool,
];
