/**
 * The bytes of a large answer, encoded on a conversion thread (encodeLargeJson), for the routes that write their
 * own (http/mcp/transport.ts, http/rest/router.ts). Undefined for an answer the route writes as it always does: a small one, or one
 * whose thread failed (its heap, the pool stopping), which is logged and then written on this thread, never left
 * unanswered.
 */
import type { Logger } from 'pino';
import { encodeLargeJson } from '../../services/convert/pool.js';

export async function largeAnswerBytes(value: unknown, logger: Logger): Promise<Uint8Array | undefined> {
  try {
    return await encodeLargeJson(value);
  } catch (error) {
    logger.error({ err: error }, 'encoding a large answer off the event loop failed; written inline');
    return undefined;
  }
}
