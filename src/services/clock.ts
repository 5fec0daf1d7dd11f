/** Timestamps as stored and returned: ISO-8601 UTC with milliseconds. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A modification time that is strictly later than the previous one, so that `last_modified_date_time_utc`
 * advances on every write even when two writes fall in the same millisecond.
 */
export function nextModified(previous: string | null | undefined): string {
  const now = Date.now();
  const prev = previous ? Date.parse(previous) : 0;
  return new Date(Math.max(now, prev + 1)).toISOString();
}
