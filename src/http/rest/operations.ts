/**
 * The REST routes derived from tool declarations (issue 11): each row names a method, a path and the tool
 * (or app operation) it serves. Path parameters and then the query (GET) or the JSON body (POST) become the
 * tool's arguments, validated by the tool's own zod input; its access and its envelope are the tools'. The
 * OpenAPI document is generated from the same rows (http/rest/openapi.ts).
 */
import type { Request } from 'express';
import type { z } from 'zod';
import { validationError } from '../../errors.js';
import type { Tool } from '../../mcp/tool.js';
import { advanceTrailTool } from '../../mcp/tools/advance-trail.js';
import { cancelTrailTool } from '../../mcp/tools/cancel-trail.js';
import { getBitTool } from '../../mcp/tools/get-bit.js';
import { getFlowTool } from '../../mcp/tools/get-flow.js';
import { getReferenceTool } from '../../mcp/tools/get-reference.js';
import { getTrailTool } from '../../mcp/tools/get-trail.js';
import { listFlowsTool } from '../../mcp/tools/list-flows.js';
import { listTrailsTool } from '../../mcp/tools/list-trails.js';
import { searchReferencesTool } from '../../mcp/tools/search-references.js';
import { startTrailTool } from '../../mcp/tools/start-trail.js';
import { submitStepDataTool } from '../../mcp/tools/submit-step-data.js';
import { transferStepTool } from '../../mcp/tools/transfer-step.js';
import { advanceStepOperation, inboxOperation, saveStepOperation, stepOperation, trailPeopleOperation } from './app-operations.js';

export interface RestOperation {
  method: 'get' | 'post';
  /** Express path under /api/v1; `:name` parameters are tool arguments of that name. */
  path: string;
  operationId: string;
  tool: Tool;
}

export const REST_OPERATIONS: RestOperation[] = [
  { method: 'get', path: '/inbox', operationId: 'inbox', tool: inboxOperation },
  { method: 'get', path: '/trails', operationId: 'listTrails', tool: listTrailsTool },
  { method: 'post', path: '/trails', operationId: 'startTrail', tool: startTrailTool },
  { method: 'get', path: '/trails/:trail_id', operationId: 'getTrail', tool: getTrailTool },
  { method: 'get', path: '/trails/:trail_id/step', operationId: 'getStep', tool: stepOperation },
  { method: 'get', path: '/trails/:trail_id/people', operationId: 'getTrailPeople', tool: trailPeopleOperation },
  { method: 'post', path: '/trails/:trail_id/answers', operationId: 'submitStepData', tool: submitStepDataTool },
  { method: 'post', path: '/trails/:trail_id/advance', operationId: 'advanceTrail', tool: advanceTrailTool },
  { method: 'post', path: '/trails/:trail_id/transfer', operationId: 'transferStep', tool: transferStepTool },
  { method: 'post', path: '/trails/:trail_id/cancel', operationId: 'cancelTrail', tool: cancelTrailTool },
  { method: 'get', path: '/flows', operationId: 'listFlows', tool: listFlowsTool },
  { method: 'get', path: '/flows/:flow_id', operationId: 'getFlow', tool: getFlowTool },
  { method: 'get', path: '/bits/:bit_id', operationId: 'getBit', tool: getBitTool },
  { method: 'get', path: '/references/search', operationId: 'searchReferences', tool: searchReferencesTool },
  { method: 'get', path: '/references/:reference_id', operationId: 'getReference', tool: getReferenceTool },
  { method: 'post', path: '/trails/:trail_id/step/answers', operationId: 'saveStep', tool: saveStepOperation },
  { method: 'post', path: '/trails/:trail_id/step/advance', operationId: 'advanceStep', tool: advanceStepOperation },
];

/** The schema under optional, nullable and default wrappers: what a query string's text is read as. */
function innerType(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (;;) {
    const def = at.def as { type: string; innerType?: z.ZodType };
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) at = def.innerType;
    else return at;
  }
}

/**
 * A query string's values as the tool's input types: numbers and booleans from their text, arrays from repeated
 * keys. What does not read as the type stays text, so the tool's own validation names the field.
 */
function fromQuery(query: Request['query'], input: z.ZodObject): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(query)) {
    const field = input.shape[key] as z.ZodType | undefined;
    const type = field ? (innerType(field).def as { type: string }).type : undefined;
    if (type === 'array') args[key] = Array.isArray(raw) ? raw : [raw];
    else if (Array.isArray(raw)) args[key] = raw;
    else if (type === 'number' && typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) args[key] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) args[key] = raw === 'true';
    else args[key] = raw;
  }
  return args;
}

/** The tool's arguments for a request: the path's parameters over the query (GET) or the JSON body (POST). */
export function operationArgs(operation: RestOperation, req: Request): Record<string, unknown> {
  let source: Record<string, unknown> = {};
  if (operation.method === 'get') source = fromQuery(req.query, operation.tool.input);
  else if (req.body !== undefined && req.body !== null) {
    if (typeof req.body !== 'object' || Array.isArray(req.body)) throw validationError([{ path: '', message: 'the request body must be a JSON object' }]);
    source = req.body as Record<string, unknown>;
  }
  return { ...source, ...req.params };
}
