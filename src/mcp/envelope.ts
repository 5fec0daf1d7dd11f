import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ERROR_CODES, WaymarkError, type ErrorCode } from '../errors.js';

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

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errorId: string;
  status: number;
  details?: Record<string, unknown>;
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

/** A thrown value as the error body; anything but a WaymarkError is INTERNAL_ERROR with no internals shown. */
export function errorBody(error: unknown): ErrorBody {
  const errorId = randomUUID();
  if (error instanceof WaymarkError) {
    return { code: error.code, message: error.message, errorId, status: error.status, ...(error.details ? { details: error.details } : {}) };
  }
  return {
    code: 'INTERNAL_ERROR',
    message: `Something went wrong on our side. Quote errorId ${errorId} when reporting it.`,
    errorId,
    status: ERROR_CODES.INTERNAL_ERROR.status,
  };
}

export function errorResult(body: ErrorBody): CallToolResult {
  return result({ success: false, error: body }, true);
}
