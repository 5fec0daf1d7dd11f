/**
 * The REST routes derived from tool declarations (issue 11): each row names a method, a path and the tool
 * (or app operation) it serves. Path parameters and then the query (GET) or the JSON body (POST) become the
 * tool's arguments, validated by the tool's own zod input; its access and its envelope are the tools'. The
 * OpenAPI document is generated from the same rows (http/rest/openapi.ts).
 */
import type { Request } from 'express';
import type { z } from 'zod';
import { validationError } from '../../errors.js';
import type { Tool } from '../../operations/operation.js';
import { advanceTrailTool } from '../../operations/trails/advance-trail.js';
import { cancelTrailTool } from '../../operations/trails/cancel-trail.js';
import { getBitTool } from '../../operations/bits/get-bit.js';
import { getFlowTool } from '../../operations/flows/get-flow.js';
import { getReferenceTool } from '../../operations/references/get-reference.js';
import { getTrailTool } from '../../operations/trails/get-trail.js';
import { listFlowsTool } from '../../operations/flows/list-flows.js';
import { listTrailsTool } from '../../operations/trails/list-trails.js';
import { searchReferencesTool } from '../../operations/references/search-references.js';
import { startTrailTool } from '../../operations/trails/start-trail.js';
import { submitStepDataTool } from '../../operations/trails/submit-step-data.js';
import { transferStepTool } from '../../operations/trails/transfer-step.js';
import { inboxOperation, stepOperation, trailPeopleOperation } from '../../operations/trails/app-operations.js';

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
