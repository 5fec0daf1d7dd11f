/**
 * Who does a step, and how long it should take (issue 27), as a bit declares them (bits.assignee,
 * bits.expected_duration). One definition: the bit writes check and store these forms, trails resolve them when
 * they enter a step, and the tools' descriptions name them.
 *
 * Stored forms: "starter" (the trail's starter), "person:<principal id>", "group:<group id>", "context:<field>" (a
 * trail_context field holding a person's email or principal id, so one flow serves every department). A bit's
 * write may name a person by email and a group by name; the service stores their ids.
 */

export type Assignee = { kind: 'starter' } | { kind: 'person'; ref: string } | { kind: 'group'; ref: string } | { kind: 'context'; field: string };

/** The forms, for descriptions and messages. */
export const ASSIGNEE_FORMS = '"starter", "person:<id or email>", "group:<id or name>" or "context:<trail_context field>"';

/** Parses an assignee's text; null when it is none of the forms. */
export function parseAssignee(text: string): Assignee | null {
  const trimmed = text.trim();
  if (trimmed === 'starter') return { kind: 'starter' };
  const colon = trimmed.indexOf(':');
  if (colon <= 0) return null;
  const kind = trimmed.slice(0, colon);
  const ref = trimmed.slice(colon + 1).trim();
  if (ref === '') return null;
  if (kind === 'person' || kind === 'group') return { kind, ref };
  if (kind === 'context') return { kind, field: ref };
  return null;
}

/** The stored text of a resolved assignee (ids for people and groups). */
export function assigneeText(assignee: Assignee): string {
  switch (assignee.kind) {
    case 'starter':
      return 'starter';
    case 'context':
      return `context:${assignee.field}`;
    default:
      return `${assignee.kind}:${assignee.ref}`;
  }
}

const UNIT_MS = { W: 7 * 86_400_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1000 } as const;

/**
 * An ISO 8601 duration in milliseconds (P2D, PT4H30M, P1W, P1DT12H); null when it is not one, or names years or
 * months (their length depends on the calendar: write days), or is zero. Fractions only on the last unit's seconds.
 */
export function durationMs(text: string): number | null {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim());
  if (!match || text.trim() === 'P' || text.trim().endsWith('T')) return null;
  const [, w, d, h, m, s] = match;
  const ms = Number(w ?? 0) * UNIT_MS.W + Number(d ?? 0) * UNIT_MS.D + Number(h ?? 0) * UNIT_MS.H + Number(m ?? 0) * UNIT_MS.M + Math.round(Number(s ?? 0) * UNIT_MS.S);
  return ms > 0 && Number.isFinite(ms) ? ms : null;
}
