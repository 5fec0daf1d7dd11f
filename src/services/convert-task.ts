/**
 * One body conversion as the conversion worker runs it (convert-pool.ts): the same convertBody as inline,
 * with a WaymarkError answered as data (an Error does not keep its class across threads) and the body
 * answered as its JSON text, which the caller parses once and stores. Or a stored body printed as markdown
 * (get_bit, a trail step), from its JSON text.
 */
import { randomUUID } from 'node:crypto';
import { bodyToMarkdown, type SlateBody } from '../content/index.js';
import { WaymarkError, type ErrorCode } from '../errors.js';
import { convertBody, type BodyInput } from './bit-body.js';

export interface ConvertTask {
  input: BodyInput;
  /** The stored body the new one keeps ids from, as its JSON text. */
  previousJson: string | null;
}

/** A stored body to print as markdown, as its JSON text. */
export interface RenderTask {
  renderJson: string;
}

export type ConvertReply =
  | { ok: true; bodyJson: string; minted: Record<string, string>; format: 'slate' | 'markdown' }
  | { ok: true; markdown: string }
  | { ok: false; code: ErrorCode; message: string; details?: Record<string, unknown> };

export function runConvertTask(task: ConvertTask | RenderTask): ConvertReply {
  if ('renderJson' in task) return { ok: true, markdown: bodyToMarkdown(JSON.parse(task.renderJson) as SlateBody) };
  try {
    const previous = task.previousJson === null ? undefined : (JSON.parse(task.previousJson) as SlateBody);
    const { body, minted, format } = convertBody(task.input, previous, randomUUID);
    return { ok: true, bodyJson: JSON.stringify(body), minted, format };
  } catch (error) {
    if (error instanceof WaymarkError) return { ok: false, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
    throw error;
  }
}
