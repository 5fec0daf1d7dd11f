import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ErrorBody } from '../errors.js';

/**
 * The failure, in every tool's output schema: said in one line rather than as a schema of its five fields,
 * which 27 tools repeated in every tools/list (about 30 tokens each, issue "What an agent pays"). Its fields
 * are the ErrorBody below; the codes, their statuses and what to do about each are listed once, by
 * describe_platform.
 */
const errorSchema = z
  .record(z.string(), z.unknown())
  .describe('When success is false: {code, message, errorId, status, details?}; the codes: describe_platform.');

/** The output schema of every tool: one object that the success and the failure envelope both satisfy. */
export function envelopeSchema(data: z.ZodType) {
  return z.object({
    success: z.boolean(),
    data: data.optional(),
    error: errorSchema.optional(),
  });
}

function result(envelope: Record<string, unknown>, isError: boolean, meta?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope,
    ...(isError ? { isError: true } : {}),
    ...(meta ? { _meta: meta } : {}),
  };
}

/** `meta`: what the result carries for the client rather than the model (the step form app's payload). */
export function successResult(data: unknown, meta?: Record<string, unknown>): CallToolResult {
  return result({ success: true, data }, false, meta);
}

export function errorResult(body: ErrorBody): CallToolResult {
  return result({ success: false, error: body }, true);
}
