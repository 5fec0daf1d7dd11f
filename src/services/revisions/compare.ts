/** Which of a revision's fields are its content: what a diff shows and "changed since approval" compares. */

/** Bookkeeping a revision keeps but that is no change of content: when, by whom, and a flow's review state. */
const NOT_CONTENT = new Set(['created_at', 'updated_at', 'created_by', 'author_principal_id', 'review_status', 'is_active']);

export function comparable(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !NOT_CONTENT.has(key)).sort(([a], [b]) => a.localeCompare(b)));
}
