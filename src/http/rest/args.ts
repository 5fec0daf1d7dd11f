/**
 * A REST request as an operation's arguments: the path's parameters over the query (GET, DELETE) or the JSON body
 * (POST), the path and query read as the operation's own zod input types, which then validate them as they do over MCP.
 */
import type { Request } from 'express';
import type { z } from 'zod';
import { validationError } from '../../errors.js';
import type { Operation } from '../../operations/operation.js';

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
function fromQuery(query: Request['query'] | Request['params'], input: z.ZodObject): Record<string, unknown> {
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

/** The operation's arguments for a request: the path's parameters over the query (GET, DELETE) or the JSON body (POST). */
export function operationArgs(operation: Operation, req: Request): Record<string, unknown> {
  let source: Record<string, unknown> = {};
  if (operation.rest?.method !== 'post') source = fromQuery(req.query, operation.input);
  else if (req.body !== undefined && req.body !== null) {
    if (typeof req.body !== 'object' || Array.isArray(req.body)) throw validationError([{ path: '', message: 'the request body must be a JSON object' }]);
    source = req.body as Record<string, unknown>;
  }
  // A path's parameters are text too: a revision number in the path reads as the number the input wants.
  return { ...source, ...fromQuery(req.params, operation.input) };
}
