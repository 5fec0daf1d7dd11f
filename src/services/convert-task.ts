/**
 * One body conversion as the conversion worker runs it (convert-pool.ts): the same convertBody as inline,
 * with a WaymarkError answered as data (an Error does not keep its class across threads) and the body
 * answered as its JSON text, which the caller parses once and stores.
 */
import { randomUUID } from 'node:crypto';
import type { SlateBody } from '../content/index.js';
import { WaymarkError, type ErrorCode } from '../errors.js';
import { convertBody, type BodyInput } from './bit-body.js';

export interface ConvertTask {
  input: BodyInput;
  /** The stored body the new one keeps ids from, as its JSON text. */
  previousJson: string | null;
}

export type ConvertReply =
  | { ok: true; bodyJson: string; minted: Record<string, string>; format: 'slate' | 'markdown' }
  | { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

export function runConvertTask(task: ConvertTask): ConvertReply {
  try {
    const previous = task.previousJson === null ? undefined : (JSON.parse(task.previousJson) as SlateBody);
    const { body, minted, format } = convertBody(task.input, previous, randomUUID);
    return { ok: true, bodyJson: JSON.stringify(body), minted, format };
  } catch (error) {
    if (error instanceof WaymarkError) return { ok: false, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
    throw error;
  }
}
