import type { Operation } from './operation.js';
import { restoreBitOperation } from './bits/restore-bit.js';
import { meOperation, signOutOperation } from './auth/me.js';
import { WEBHOOK_OPERATIONS } from './webhooks/webhook-operations.js';
import { NOTIFICATION_OPERATIONS } from './notifications/notification-operations.js';
import { GROUP_OPERATIONS } from './groups/group-operations.js';
import { endPersonAccessOperation, invitePersonOperation, peopleOperation, updatePersonOperation } from './auth/people.js';
import { createScopeOperation, listScopesOperation } from './auth/scopes.js';
import { listGrantsOperation, listOwnTokensOperation, revokeGrantOperation, revokeOwnTokenOperation } from './auth/connected-apps.js';
import { advanceStepOperation, assignStepOperation, claimStepOperation, inboxOperation, releaseStepOperation, saveStepOperation, stepOperation, trailPeopleOperation } from './trails/app-operations.js';
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
import { commentOnStepTool, trailCommentsOperation } from './trails/comment-on-step.js';
import { listHistoryTool } from './events/list-history.js';
import { diffRevisionsTool, getRevisionTool, restoreRevisionTool } from './events/revisions.js';
import { exportFolderTool } from './folder/export-folder.js';
import { importFolderTool } from './folder/import-folder.js';
import { getSampleFlowOperation } from './folder/sample-flow.js';
import { exportTrailsOperation, searchTrailsOperation } from './trails/search-trails.js';
import { flowReportOperation } from './trails/flow-report.js';

/**
 * Every operation, each declared once: its doors (MCP, REST), access, shapes and what it shows a person are fields
 * of its declaration, read by dispatch and the doors. The MCP tools come first, in the order tools/list shows them.
 */
const OPERATIONS: readonly Operation[] = [
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
  commentOnStepTool,
  createReferenceTool,
  updateReferenceTool,
  getReferenceTool,
  searchReferencesTool,
  linkReferenceTool,
  updateBitReferenceLinkTool,
  unlinkReferenceTool,
  listHistoryTool,
  getRevisionTool,
  diffRevisionsTool,
  restoreRevisionTool,
  ...WEBHOOK_OPERATIONS,
  ...GROUP_OPERATIONS,
  exportFolderTool,
  importFolderTool,
  getSampleFlowOperation,
  inboxOperation,
  stepOperation,
  saveStepOperation,
  advanceStepOperation,
  claimStepOperation,
  releaseStepOperation,
  assignStepOperation,
  trailPeopleOperation,
  trailCommentsOperation,
  peopleOperation,
  updatePersonOperation,
  invitePersonOperation,
  endPersonAccessOperation,
  listScopesOperation,
  createScopeOperation,
  restoreBitOperation,
  meOperation,
  signOutOperation,
  listGrantsOperation,
  revokeGrantOperation,
  listOwnTokensOperation,
  revokeOwnTokenOperation,
  ...NOTIFICATION_OPERATIONS,
  searchTrailsOperation,
  exportTrailsOperation,
  flowReportOperation,
];

/** What one server serves: a registry is a value, built from a list (a test or the tool-call bench adds its own). */
export interface Registry {
  readonly operations: readonly Operation[];
  /** The MCP tools, in tools/list order. */
  readonly tools: readonly Operation[];
  /** The operations with a REST route. */
  readonly rest: readonly Operation[];
}

export function createRegistry(extra: readonly Operation[] = []): Registry {
  const operations = [...OPERATIONS, ...extra];
  const names = new Set<string>();
  for (const operation of operations) {
    if (names.has(operation.name)) throw new Error(`two operations are named ${operation.name}`);
    names.add(operation.name);
  }
  return { operations, tools: operations.filter((o) => o.mcp !== false), rest: operations.filter((o) => o.rest !== undefined) };
}

/** Waymark's own operations. */
export const REGISTRY = createRegistry();

/** Every tool the server offers, in the order tools/list shows them. */
export function allTools(): readonly Operation[] {
  return REGISTRY.tools;
}
