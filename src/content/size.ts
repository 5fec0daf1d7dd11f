/** "bit_body at most 8 MB after conversion" (authoring-interface.md, Limits): the stored JSON, in bytes. */
import { WaymarkError } from '../errors.js';
import { LIMITS } from '../limits/index.js';
import type { SlateBody } from './slate.js';

export function bodyByteLength(body: SlateBody): number {
  return Buffer.byteLength(JSON.stringify(body), 'utf8');
}

export function assertBodySize(body: SlateBody): void {
  assertJsonSize(JSON.stringify(body));
}

/** assertBodySize on the body's JSON text, for a caller that writes it anyway. */
export function assertJsonSize(json: string): void {
  // UTF-8 takes at least one and at most three bytes per UTF-16 unit: count bytes only when it matters.
  if (json.length * 3 <= LIMITS.bodyBytes) return;
  const bytes = json.length > LIMITS.bodyBytes ? json.length : Buffer.byteLength(json, 'utf8');
  if (bytes > LIMITS.bodyBytes) {
    throw new WaymarkError(
      'BODY_TOO_LARGE',
      `bit_body is ${bytes} bytes once converted, over ${LIMITS.bodyBytes}; split the content over several bits`,
      { max_bytes: LIMITS.bodyBytes, bytes },
    );
  }
}
