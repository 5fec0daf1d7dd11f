/**
 * list_history (issue 26): the events a caller may see, newest first, filtered by resource, actor and operation,
 * cursor-paged by the account's event number. Visibility follows the resource: a scope-limited caller sees its
 * scope's events and the account level's, nothing of another scope or account (visibility.ts).
 */
import { validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import type { EventResourceType } from '../../store/enums.js';
import { listEvents } from '../../store/repositories/events.repo.js';
import type { EventTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { resolveScope } from '../scopes.js';
import type { EventView, HistoryPage } from './shapes.js';

export interface ListHistoryInput {
  resource_type?: EventResourceType;
  resource_id?: string;
  /** A scope's changes, or (null) the account level's. */
  scope_id?: string | null;
  principal_id?: string;
  operation?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: number;
}

const CURSOR = /^h([1-9][0-9]{0,15})$/;

function decodeCursor(cursor: string): number {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw validationError([{ path: 'cursor', message: 'not a cursor this server handed out; pass next_cursor from the previous page, or omit it' }]);
  return Number(match[1]);
}

const encodeCursor = (seq: number) => Buffer.from(`h${seq}`).toString('base64url');

export class HistoryService {
  constructor(private readonly store: Store) {}

  async list(actor: Actor, input: ListHistoryInput): Promise<HistoryPage> {
    const limit = input.limit ?? LIMITS.defaultPageSize;
    const beforeSeq = input.cursor === undefined ? undefined : decodeCursor(input.cursor);
    if (input.scope_id) await resolveScope(this.store.db, actor, input.scope_id);
    const rows = await listEvents(
      this.store.db,
      actor,
      {
        resourceType: input.resource_type,
        resourceId: input.resource_id,
        scopeId: input.scope_id,
        principalId: input.principal_id,
        operation: input.operation,
        // Times are stored as UTC ISO text with milliseconds, so they compare as text once written the same way.
        since: input.since === undefined ? undefined : new Date(input.since).toISOString(),
        until: input.until === undefined ? undefined : new Date(input.until).toISOString(),
      },
      { limit: limit + 1, beforeSeq },
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { events: page.map(eventView), next_cursor: rows.length > limit && last ? encodeCursor(Number(last.seq)) : null };
  }
}

function eventView(row: EventTable): EventView {
  return {
    event_id: row.id,
    seq: Number(row.seq),
    occurred_date_time_utc: row.occurred_at,
    scope_id: row.scope_id,
    operation: row.operation,
    resource_type: row.resource_type as EventResourceType,
    resource_id: row.resource_id,
    revision: row.revision === null ? null : Number(row.revision),
    principal_id: row.principal_id,
    principal_kind: row.principal_kind,
    token_id: row.token_id,
    client_name: row.client_name,
    summary: JSON.parse(row.summary) as Record<string, unknown>,
  };
}
