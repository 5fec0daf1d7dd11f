import type { Tool } from './operation.js';
import { describePlatformTool } from './platform/describe-platform.js';
import { addBitTool } from './bits/add-bit.js';
import { archiveBitTool } from './bits/archive-bit.js';
import { connectBitsTool } from './bits/connect-bits.js';
import { getBitTool } from './bits/get-bit.js';
import { removeConnectionTool } from './bits/remove-connection.js';
import { updateBitTool } from './bits/update-bit.js';
import { createReferenceTool } from './references/create-reference.js';
import { getReferenceTool } from './references/get-reference.js';
import { linkReferenceTool } from './references/link-reference.js';
import { searchReferencesTool } from './references/search-references.js';
import { unlinkReferenceTool } from './references/unlink-reference.js';
import { updateBitReferenceLinkTool } from './references/update-bit-reference-link.js';
import { updateReferenceTool } from './references/update-reference.js';
import { createFlowTool } from './flows/create-flow.js';
import { getFlowTool } from './flows/get-flow.js';
import { listBitsTool } from './bits/list-bits.js';
import { listFlowsTool } from './flows/list-flows.js';
import { reviewFlowTool } from './flows/review-flow.js';
import { updateFlowTool } from './flows/update-flow.js';
import { advanceTrailTool } from './trails/advance-trail.js';
import { cancelTrailTool } from './trails/cancel-trail.js';
import { getTrailTool } from './trails/get-trail.js';
import { listTrailsTool } from './trails/list-trails.js';
import { startTrailTool } from './trails/start-trail.js';
import { submitStepDataTool } from './trails/submit-step-data.js';
import { transferStepTool } from './trails/transfer-step.js';

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
