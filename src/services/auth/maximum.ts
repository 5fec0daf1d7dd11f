/**
 * A principal's maximum (issue 28): the most any credential of theirs may carry, set by an Admin. One reading for
 * every credential: a session's and a token's Actor is cut to it where the Actor is built (actorOfRow), an OAuth
 * access token's likewise (oauth.service.ts actorFor), and a new link, token or consent never offers more. Lowering
 * the maximum therefore cuts what existing credentials do at once, without rewriting any of them.
 */
import { CAPABILITY_KINDS, capabilityName, type CapabilityKind } from '../../config.js';
import { WaymarkError } from '../../errors.js';

/** The stored maximum (kinds, brand-free: migration 019) as capability names, in CONTRACT.md's order. */
export function maximumOf(stored: unknown): string[] {
  let kinds: unknown = stored;
  if (typeof stored === 'string') {
    try {
      kinds = JSON.parse(stored);
    } catch {
      kinds = [];
    }
  }
  const held = new Set(Array.isArray(kinds) ? kinds.map(String) : []);
  return CAPABILITY_KINDS.filter((k) => held.has(k)).map(capabilityName);
}

/** Capability names (already checked as known) as the stored maximum. */
export function storedMaximum(capabilities: readonly string[]): string {
  const asked = new Set(capabilities);
  return JSON.stringify(CAPABILITY_KINDS.filter((k) => asked.has(capabilityName(k))));
}

/** What a credential carrying `capabilities` may do under the principal's maximum. */
export function withinMaximum(capabilities: readonly string[], stored: unknown): string[] {
  const max = new Set(maximumOf(stored));
  return capabilities.filter((c) => max.has(c));
}

/** A capability as a person reads it: what it lets one do. */
export const CAPABILITY_WORDS: Record<CapabilityKind, string> = {
  read: 'read flows and trails',
  run: 'run trails',
  author: 'write flows',
};

/** Refuses a credential asked beyond the principal's maximum, naming what is beyond it and what the maximum is. */
export function assertWithinMaximum(asked: readonly string[], stored: unknown, who: string): void {
  const max = maximumOf(stored);
  const beyond = asked.filter((c) => !max.includes(c));
  if (beyond.length === 0) return;
  throw new WaymarkError(
    'VALIDATION_ERROR',
    `${who} may be given at most ${max.join(', ') || 'nothing'}; ${beyond.join(', ')} is beyond the maximum an Admin set (an Admin raises it on the People page).`,
    { issues: [{ path: 'capabilities', message: `beyond the principal's maximum: ${beyond.join(', ')}` }] },
  );
}
