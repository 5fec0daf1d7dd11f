import { LIMITS } from './limits/index.js';

/**
 * The error catalogue: one home for every code a tool can answer with (CONTRACT.md, "Error codes").
 * Services throw `WaymarkError`; the MCP envelope and the REST routes turn it into an answer.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: 422, when: 'an input fails its schema or a field rule; details.issues[] = {path, message}' },
  UNKNOWN_ELEMENT_PROP: { status: 422, when: 'an element prop not allowed for its type; details.allowed_props' },
  UNSUPPORTED_MARKDOWN_CONSTRUCT: { status: 422, when: 'element-like markdown without a matching elements[] entry, or prose imitating an element; details.line, details.text' },
  BIT_CONTENT_LOSS: { status: 422, when: 'update_bit omits a kept node not listed in remove_node_ids; details.removed_nodes[] = {id, type, label}' },
  BODY_TOO_LARGE: { status: 413, when: 'a body over 8 MB after conversion' },
  UNAUTHENTICATED: { status: 401, when: 'no token, or a wrong or expired one' },
  FORBIDDEN: { status: 403, when: 'capability or permission missing; details.required_capability / details.required_permission' },
  BIT_NOT_FOUND: { status: 404, when: 'the bit does not exist, or is not the caller\'s to see' },
  FLOW_NOT_FOUND: { status: 404, when: 'the flow does not exist, or is not the caller\'s to see' },
  REFERENCE_NOT_FOUND: { status: 404, when: 'the reference does not exist, or is not the caller\'s to see' },
  SCOPE_NOT_FOUND: { status: 404, when: 'the scope does not exist, or is not the caller\'s to see' },
  TRAIL_NOT_FOUND: { status: 404, when: 'the trail does not exist, or is not the caller\'s to see' },
  BIT_REFERENCE_LINK_NOT_FOUND: { status: 404, when: 'no link between that bit and that reference' },
  ELEMENT_NOT_FOUND: { status: 404, when: 'an element id that the bit does not hold' },
  CONNECTION_NOT_FOUND: { status: 404, when: 'the connection does not exist or was already removed' },
  REVISION_NOT_FOUND: { status: 404, when: 'the resource has no such revision (list_history lists its revisions), or is not the caller\'s to see' },
  WEBHOOK_NOT_FOUND: { status: 404, when: 'the webhook subscription does not exist, or is not the caller\'s to see' },
  DELIVERY_NOT_FOUND: { status: 404, when: 'no such delivery in the webhook\'s log' },
  GROUP_NOT_FOUND: { status: 404, when: 'the group does not exist, or is not the caller\'s to see' },
  PRINCIPAL_NOT_FOUND: { status: 404, when: 'no person or agent of the account has that id, email or name' },
  STEP_NOT_FOUND: { status: 404, when: 'the trail the caller can see has no step with that id (get_trail lists its steps in history)' },
  COMMENT_NOT_FOUND: { status: 404, when: 'the comment does not exist, or is not the caller\'s to see' },
  NOTIFICATION_NOT_FOUND: { status: 404, when: 'the notification does not exist, or is not the caller\'s' },
  GRANT_NOT_FOUND: { status: 404, when: 'the OAuth grant does not exist, was revoked, or is not the caller\'s' },
  BIT_ARCHIVED: { status: 422, when: 'a write that needs an active bit names an archived one' },
  SCOPE_MISMATCH: { status: 422, when: 'two records that must share a scope do not' },
  SORT_ORDER_CONFLICT: { status: 409, when: 'explicit sort_order differs from the next position; details.expected_sort_order' },
  CONNECTION_LIMIT_EXCEEDED: { status: 422, when: 'a 21st outgoing connection' },
  BIT_IS_ACTIVE_FLOW_START: { status: 422, when: 'archive_bit on the start bit of an active flow; details.flow_ids' },
  FLOW_START_BIT_INVALID: { status: 422, when: 'start bit missing, archived, in another scope, or null on update' },
  FLOW_ACTIVATION_REFUSED: { status: 422, when: 'is_active=true while review_status is not approved or the start bit is archived; details.reasons' },
  REFERENCE_IN_USE: { status: 409, when: 'archiving a reference that a bit links; details.bit_ids' },
  REFERENCE_UNARCHIVE_UNSUPPORTED: { status: 422, when: 'is_active=true on an archived reference' },
  REFERENCE_ARCHIVED: { status: 422, when: 'linking or citing an archived reference' },
  DUPLICATE_REFERENCE_LINK: { status: 409, when: 'link_reference for a pair already linked' },
  INTERACTIVE_ELEMENT_NOT_ALLOWED: { status: 422, when: 'an interactive element in reference content' },
  INVALID_TRAIL_CONTEXT_SCHEMA: { status: 422, when: 'trail_context_schema is not of the accepted profile' },
  TRAIL_CONTEXT_INVALID: { status: 422, when: 'trail_context fails the flow\'s schema; details.issues[]' },
  FLOW_NOT_APPROVED: { status: 422, when: 'start_trail with version "approved" on a flow that has never been approved' },
  FLOW_INACTIVE: { status: 422, when: 'start_trail on an inactive flow' },
  ANSWER_INVALID: { status: 422, when: 'a submitted value fails its element\'s type or config; details.issues[]' },
  REQUIRED_ANSWERS_MISSING: { status: 422, when: 'advancing past a step whose required elements are unanswered; details.element_ids, details.elements [{element_id, label}]' },
  HUMAN_REQUIRED: { status: 409, when: 'an agent answers or advances a human_required step; use transfer_step' },
  STEP_ASSIGNED: { status: 409, when: 'answering, advancing or claiming a step assigned to someone else (an agent never acts on a step assigned to a person); details.assignee' },
  TRAIL_NOT_RUNNING: { status: 409, when: 'a trail call on a completed or cancelled trail' },
  IMPORT_INVALID: { status: 422, when: 'import_folder: files of the folder break the tools\' rules; nothing was written; details.problems[] = {file, line, code, message}, each with the code the tool would answer' },
  FOLDER_TOO_LARGE: { status: 413, when: 'a folder over its bounds (files, bytes of one file or of all); details.limit, details.max; nothing was read or written' },
  TOO_MANY_REQUESTS: { status: 429, when: 'a quota of the token or account is used up (describe_platform, quotas): requests in a window, or searches, conversions or heavy reads at once; wait details.retry_after_seconds, then retry' },
  QUERY_TIMEOUT: { status: 503, when: 'a database statement ran longer than the server allows; narrow the request (more words, a phrase, filters) or retry' },
  INTERNAL_ERROR: { status: 500, when: 'anything unexpected' },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ValidationIssue {
  /** Where in the caller's input, as pathText writes it. */
  path: string;
  message: string;
}

/**
 * A place in the caller's input as every error writes it (issue 13, one path format): keys dotted, array indices
 * in brackets, as JavaScript reads them: `bit_body[2].children[0]`, `data[0].value`. `base` is a path already
 * written so; `segments` are zod's and our walkers' keys and indices.
 */
export function pathText(segments: ReadonlyArray<PropertyKey>, base = ''): string {
  let out = base;
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? String(s) : `.${String(s)}`;
  return out;
}

/** Two written paths as one: `data[0].value` and `value[1]` → `data[0].value.value[1]`. */
export function joinPath(base: string, rest: string): string {
  if (base === '' || rest === '') return base || rest;
  return rest.startsWith('[') ? `${base}${rest}` : `${base}.${rest}`;
}

export class WaymarkError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'WaymarkError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** VALIDATION_ERROR with its `details.issues`; `extra` adds details that say more (an unsafe url, a limit). */
export function validationError(issues: ValidationIssue[], message?: string, extra?: Record<string, unknown>): WaymarkError {
  const text = message ?? issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return new WaymarkError('VALIDATION_ERROR', text, { issues, ...extra });
}

/**
 * An error listing issues, bounded however many there are (hostile-trails: an error's issues kept few and its
 * message short; issue 16, "Errors are bounded"): at most LIMITS.issuesPerError issues in
 * details.issues (the first, in the order given), their total in details.issue_count, and a message of at
 * most LIMITS.errorMessageLength characters: `lead`, the shown issues (`path: message` each, or as `show`
 * writes them), then `tail`.
 */
export function issuesError(
  code: ErrorCode,
  issues: ValidationIssue[],
  text: { lead: string; tail?: string; show?: (issue: ValidationIssue) => string },
  extra?: Record<string, unknown>,
): WaymarkError {
  const shown = issues.slice(0, LIMITS.issuesPerError).map((i) => ({ ...i, path: clip(i.path, 300), message: clip(i.message, 500) }));
  const show = text.show ?? ((i: ValidationIssue) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more; details.issue_count has the total)` : '';
  const tail = text.tail ?? '';
  const message = `${clip(`${text.lead}${shown.map(show).join('; ')}${more}`, LIMITS.errorMessageLength - tail.length)}${tail}`;
  return new WaymarkError(code, message, { ...extra, issues: shown, issue_count: issues.length });
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An error as every transport answers it (the tools' envelope, the REST routes, the sign-in and OAuth pages). */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  errorId: string;
  status: number;
  details?: Record<string, unknown>;
}

/** A thrown value as the error body; anything but a WaymarkError is INTERNAL_ERROR with no internals shown. */
export function errorBody(error: unknown): ErrorBody {
  const errorId = crypto.randomUUID();
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
