/**
 * The typed schema of the store (one `DB` interface, as in immich). Timestamps are ISO-8601 UTC text
 * with milliseconds on both engines, so they sort as text. Booleans are 0/1 integers: SQLite has no
 * boolean and better-sqlite3 refuses to bind one. JSON columns are jsonb (PostgreSQL) or text (SQLite);
 * read them through the dialect's parseJson.
 */
import type { Generated } from 'kysely';
import type { BitStatus, Complexity, EventActorKind, MailKind, Permission, Priority, PrincipalKind, ReviewStatus, TrailEventKind, TrailStatus } from './enums.js';

export type { TrailEventKind } from './enums.js';

export type Json = unknown;
export type Flag = number;

export interface AccountTable { id: string; name: string; created_at: string }
export interface ScopeTable { id: string; account_id: string; name: string; created_at: string }
export interface PrincipalTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  kind: PrincipalKind;
  permission: Permission;
  name: string;
  created_at: string;
  /** Migration 017: where the person is told by mail, lower-cased; unique in the account. */
  email: string | null;
  /** Migration 019: the most any credential of the principal may carry, a JSON array text of capability kinds. */
  max_capabilities: string;
  /** Migration 019: the Admin who invited the person from the app, and when. */
  invited_by: string | null;
  invited_at: string | null;
}
export interface TokenTable {
  id: string;
  principal_id: string;
  /** SHA-256 of the token, hex. The token itself is shown once and never stored. */
  token_hash: string;
  capabilities: Json;
  expires_at: string | null;
  created_at: string;
  /** When `waymark token revoke` ended it; null while it is valid. */
  revoked_at: string | null;
}
export interface BitTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  title: string;
  abstract: string | null;
  description: string | null;
  body: Json;
  categories: Json;
  complexity: Complexity;
  human_required: Flag;
  /** Migration 017: who does the bit's step ("starter", "person:<id>", "group:<id>", "context:<field>"); null: anyone. */
  assignee: string | null;
  /** Migration 017: how long the bit's step should take, an ISO 8601 duration (PT4H, P2D). */
  expected_duration: string | null;
  status: BitStatus;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export interface ConnectionTable {
  id: string;
  account_id: string;
  source_bit_id: string;
  target_bit_id: string;
  sort_order: number;
  created_at: string;
}
export interface FlowTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  title: string;
  description: string | null;
  categories: Json;
  priority: Priority;
  start_bit_id: string;
  trail_context_schema: Json | null;
  is_active: Flag;
  review_status: ReviewStatus;
  created_by: string;
  created_at: string;
  updated_at: string;
}
export interface ReferenceTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  title: string;
  abstract: string | null;
  content: Json;
  /** The text search indexes: the content's text, bounded (references/content.ts, searchTexts). */
  search_text: string;
  /** The prefix of search_text that snippets are cut from (migration 007). */
  snippet_text: string;
  categories: Json;
  is_active: Flag;
  author_principal_id: string;
  created_at: string;
  updated_at: string;
}
export interface BitReferenceLinkTable {
  id: string;
  account_id: string;
  bit_id: string;
  reference_id: string;
  display_label: string | null;
  position: number;
  created_at: string;
}
export interface TrailTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  flow_id: string;
  title: string | null;
  context: Json;
  status: TrailStatus;
  current_step_id: string | null;
  started_by: string;
  created_at: string;
  updated_at: string;
  /** The approved flow version the trail runs (migration 014); null: the bits as they are when it enters them. */
  flow_version: number | null;
  /**
   * Migration 015: 1 while the trail is open and its current step waits for any person (handed over with nobody
   * named, or human_required while running), else 0; since issue 27 (migration 017), 2 while it waits for the
   * person or group it is assigned to (trails/assignment.ts needsPerson: an agent's own step is 0). Written with
   * every change of status, step or assignment (what the inbox filters and counts on).
   */
  needs_person: number;
  /**
   * Migration 017: the current step's assignee (a principal: named, claimed or handed to), the group it is offered
   * to, and its due time, written with every change of the step; step_reminded: its overdue reminder was recorded.
   * due_at: the trail's own deadline; due_reminded: its reminder was recorded.
   */
  step_assignee: string | null;
  step_group: string | null;
  step_due_at: string | null;
  step_reminded: number;
  due_at: string | null;
  due_reminded: number;
  /**
   * Migration 018: when a completed or cancelled trail was archived by age (services/trails/archive.service.ts);
   * optional here as every trail starts without it.
   */
  archived_at?: string | null;
}
export interface TrailStepTable {
  id: string;
  trail_id: string;
  seq: number;
  bit_id: string;
  /** The bit as the trail ran it, so a later edit or archive does not rewrite the trail's record. */
  bit_snapshot: Json;
  entered_at: string;
  left_at: string | null;
  left_by_connection_id: string | null;
  /**
   * The transfer columns (migrations 001 and 003) are no longer written: migration 004 copied them into
   * trail_events, which holds every transfer. left_by (003): who left the step.
   */
  transfer_reason: string | null;
  transferred_by: string | null;
  transferred_at: string | null;
  left_by: string | null;
  /**
   * Migration 008: sha256 of the stored snapshot; the step that holds it when this one shares an earlier
   * step's (bit_snapshot is then the JSON null); the bit's title as entered (null only on rows older than 008).
   * Since migration 018 every snapshot is in step_snapshots under (account, snapshot_hash): bit_snapshot is the
   * JSON null and snapshot_step_id null on every step.
   */
  snapshot_hash: string | null;
  snapshot_step_id: string | null;
  bit_title: string | null;
  /** The bit revision the step ran (migration 014); null on steps entered before it. */
  bit_revision: number | null;
  /** Migration 015: the bit was human_required as the trail entered it (1), read without the snapshot. */
  human_required: number;
  /** Migration 017: whom the step is given to (a principal, a group) and by when; its overdue reminder was recorded. */
  assignee_principal: string | null;
  assignee_group: string | null;
  due_at: string | null;
  overdue_reminded: number;
}
export interface TrailAnswerTable {
  id: Generated<number>;
  trail_id: string;
  step_id: string;
  element_id: string;
  element_type: string;
  value: Json;
  warnings: Json | null;
  answered_by: string;
  answered_at: string;
  /** Migration 008: bytes of the stored value JSON. */
  value_bytes: Generated<number>;
}


/** Every transfer_step and the cancel_trail of a trail, oldest first by id (migration 004). */
export interface TrailEventTable {
  id: Generated<number>;
  trail_id: string;
  step_id: string | null;
  kind: TrailEventKind;
  reason: string | null;
  /** Null only for transfers made before migration 003 recorded who made them. */
  principal_id: string | null;
  at: string;
}

/**
 * How many open trails a group holds (migration 015): by account, scope, flow, starter, status and needs_person;
 * under the starter '' the group's trails that need a person, whoever started them. Kept by the trail writes
 * (trails.repo.ts), read by the inbox's counts.
 */
export interface InboxCountTable {
  /** The group's parts joined by '|' (inbox.repo.ts countKey). */
  id: string;
  account_id: string;
  scope_id: string | null;
  flow_id: string;
  started_by: string;
  status: TrailStatus;
  needs_person: number;
  trails: number;
}

/** Who took part in a trail (migration 015): every principal who changed it, with the trail's updated_at. */
export interface TrailParticipantTable {
  trail_id: string;
  principal_id: string;
  updated_at: string;
}

/** A one-time sign-in link (migration 010): only the SHA-256 of its secret is kept. */
export interface SigninLinkTable {
  id: string;
  principal_id: string;
  token_hash: string;
  /** The capabilities the session it opens carries, a JSON array of full names (text on both engines). */
  capabilities: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A web app session opened by a sign-in link (migration 010). */
export interface SigninSessionTable {
  id: string;
  principal_id: string;
  token_hash: string;
  capabilities: string;
  csrf_secret: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end; the idle end is last_seen_at plus LIMITS.sessionIdleMs. */
  expires_at: string;
  revoked_at: string | null;
}

export interface DB {
  accounts: AccountTable;
  scopes: ScopeTable;
  principals: PrincipalTable;
  tokens: TokenTable;
  bits: BitTable;
  connections: ConnectionTable;
  flows: FlowTable;
  library_references: ReferenceTable;
  bit_reference_links: BitReferenceLinkTable;
  trails: TrailTable;
  trail_steps: TrailStepTable;
  trail_answers: TrailAnswerTable;
  trail_events: TrailEventTable;
  trail_participants: TrailParticipantTable;
  inbox_counts: InboxCountTable;
  signin_links: SigninLinkTable;
  signin_sessions: SigninSessionTable;
  oauth_records: OAuthRecordTable;
  oauth_secrets: OAuthSecretTable;
  events: EventTable;
  revisions: RevisionTable;
  flow_versions: FlowVersionTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  groups: GroupTable;
  group_members: GroupMemberTable;
  trail_comments: TrailCommentTable;
  notifications: NotificationTable;
  notification_settings: NotificationSettingsTable;
  step_snapshots: StepSnapshotTable;
  shared_counters: SharedCounterTable;
}

/** Each distinct snapshot trails of an account entered, once, under its sha256 (migration 018). */
export interface StepSnapshotTable {
  account_id: string;
  hash: string;
  snapshot: Json;
}

/** A request rate's count in its current window, shared by every server process on the store (migration 018). */
export interface SharedCounterTable {
  key: string;
  points: number;
  /** Milliseconds since the epoch; PostgreSQL hands a bigint back as a string. */
  resets_at: number | string;
}

/** People an Admin groups, so a step can be offered to them (migration 017). */
export interface GroupTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}
export interface GroupMemberTable {
  group_id: string;
  principal_id: string;
  account_id: string;
  added_at: string;
}

/** What a person or agent said on a trail step (migration 017); mentions: a JSON array text of principal ids. */
export interface TrailCommentTable {
  id: string;
  account_id: string;
  trail_id: string;
  step_id: string;
  principal_id: string;
  body: string;
  mentions: string;
  created_at: string;
}

/**
 * What a person is told (migration 017), recorded in the transaction of the change that causes it; summary: JSON
 * text of a few titles and ids (never an answer or a credential). Mail: email_state 'none' (not by mail), 'pending'
 * (to send: at email_next_at, under a lease), 'sent', or 'failed' (retries spent).
 */
export interface NotificationTable {
  id: Generated<number>;
  account_id: string;
  principal_id: string;
  kind: MailKind;
  trail_id: string | null;
  step_id: string | null;
  actor_id: string | null;
  summary: string;
  created_at: string;
  read_at: string | null;
  email_state: 'none' | 'pending' | 'sent' | 'failed';
  email_attempts: Generated<number>;
  email_next_at: string | null;
  email_lease_id: string | null;
  email_leased_until: string | null;
  email_error: string | null;
}

/** Which kinds of notification a person gets by mail (migration 017): a JSON array text of kinds. */
export interface NotificationSettingsTable {
  principal_id: string;
  account_id: string;
  email_kinds: string;
  updated_at: string;
}

/** A webhook subscription (migration 016): where an account's (or scope's) events of some types are sent. */
export interface WebhookEndpointTable {
  id: string;
  account_id: string;
  scope_id: string | null;
  url: string;
  /** JSON array text of event type names, or ["*"]. */
  event_types: string;
  description: string | null;
  /** The signing key (Standard Webhooks `whsec_…`), and the one before it while a rotation overlaps. */
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  status: 'active' | 'failing' | 'disabled';
  /** The account's events are delivered through this seq. */
  cursor_seq: number;
  head_attempts: number;
  head_failing_since: string | null;
  next_attempt_at: string | null;
  lease_id: string | null;
  leased_until: string | null;
  failing_since: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One attempt to deliver one event to one endpoint (migration 016). */
export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_seq: number;
  event_type: string;
  attempt: number;
  outcome: 'delivered' | 'failed';
  response_code: number | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
}

/** A bit's, flow's or reference's state after its revision-th change (migration 014; services/revisions/codec.ts). */
export interface RevisionTable {
  resource_id: string;
  revision: number;
  resource_type: string;
  account_id: string;
  created_at: string;
  kind: 'full' | 'delta';
  data: Uint8Array;
  /** Stored bytes a reader reads for this revision: from the last full one to this one. */
  chain_bytes: number;
}

/** A flow as approved (migration 014): its revision then, and its graph with each bit's revision (JSON text). */
export interface FlowVersionTable {
  flow_id: string;
  version: number;
  account_id: string;
  flow_revision: number;
  graph: string;
  approved_by: string | null;
  created_at: string;
}

/** One accepted change (migration 013): append-only, chained per account by hash. */
export interface EventTable {
  id: string;
  account_id: string;
  /** 1, 2, 3, … per account, without gaps. */
  seq: number;
  occurred_at: string;
  /** The scope of the resource changed; null at account level. */
  scope_id: string | null;
  /** Null when the operator changed it at the command line. */
  principal_id: string | null;
  principal_kind: EventActorKind;
  /** The API key's id (tokens.id) the call came with. */
  token_id: string | null;
  /** The OAuth client's name when the call came through a grant. */
  client_name: string | null;
  operation: string;
  resource_type: string;
  resource_id: string;
  /** The resource's change count after this change (1 for its first event). */
  revision: number | null;
  /** JSON object text: a few ids and names, never a secret. */
  summary: string;
  prev_hash: string | null;
  hash: string;
}

/** One record of the authorization server (migration 011): any oidc-provider model, its payload as the library wrote it. */
export interface OAuthRecordTable {
  model: string;
  id: string;
  payload: Json;
  grant_id: string | null;
  uid: string | null;
  principal_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}
/** Keys every `serve` process of a store shares: the token signing keys and the cookie keys (migration 011). */
export interface OAuthSecretTable {
  name: string;
  value: Json;
  created_at: string;
}
