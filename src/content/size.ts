/** "bit_body at most 8 MB after conversion" (authoring-interface.md, Limits): the stored JSON, in bytes. */
import { WaymarkError } from '../errors.js';
import { LIMITS } from './limits.js';
import type { SlateBody } from './slate.js';

export function bodyByteLength(body: SlateBody): number {
  return Buffer.byteLength(JSON.stringify(body), 'utf8');
}

export function assertBodySize(body: SlateBody): void {
  const bytes = bodyByteLength(body);
  if (bytes > LIMITS.bodyBytes) {
    throw new WaymarkError(
      'BODY_TOO_LARGE',
      `bit_body is ${bytes} bytes once converted, over ${LIMITS.bodyBytes}; split the content over several bits`,
      { max_bytes: LIMITS.bodyBytes, bytes },
    );
  }
}
