import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ErrorBody } from '../errors.js';

/**
 * The failure's shape, the same for every tool and kept short: the codes, their statuses and what to do
 * about each are listed once, by describe_platform, rather than in all 27 output schemas.
 */
const errorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    errorId: z.string(),
    status: z.number().int(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .describe('When success is false. Codes: describe_platform.');

/** The output schema of every tool: one object that the success and the failure envelope both satisfy. */
export function envelopeSchema(data: z.ZodType) {
  return z.object({
    success: z.boolean(),
    data: data.optional(),
    error: errorSchema.optional(),
  });
}

function result(envelope: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(envelope) }],
    structuredContent: envelope,
    ...(isError ? { isError: true } : {}),
  };
}

export function successResult(data: unknown): CallToolResult {
  return result({ success: true, data }, false);
}

export function errorResult(body: ErrorBody): CallToolResult {
  return result({ success: false, error: body }, true);
}
