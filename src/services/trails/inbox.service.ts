/**
 * The inbox (issue 11): the steps waiting for the caller. In the view `mine`, a trail is there while running or
 * waiting, when the caller started it, when its step is assigned to or claimed by the caller (issue 27), when it was
 * handed to any person (transfer_step naming no one) or its current step is human_required and the caller is a
 * person. `groups`: steps offered to the caller's groups; `everyone` (Admins): every open trail they can see. Newest
 * change first or soonest due first, paged like list_trails, with counts per view under the same filters.
 */
import { WaymarkError } from '../../errors.js';
import { findFlow } from '../../store/repositories/flows.repo.js';
import * as repo from '../../store/repositories/inbox.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { LIMITS } from '../../limits/index.js';
import type { OpenTrailStatus } from '../../store/enums.js';
import type { Inbox, InboxItem } from './inbox-shapes.js';
import { groupIdsOf, namesOf } from '../../store/repositories/assignees.repo.js';
import { permissionAtLeast } from '../actor.js';
import { nowIso } from '../clock.js';
import { viewOf } from './assignment.js';
import { isOverdue } from './view.js';

export { INBOX_REASONS, INBOX_SORTS, INBOX_VIEWS, type InboxReason } from '../../store/repositories/inbox.repo.js';
export type { Inbox, InboxItem } from './inbox-shapes.js';

export interface InboxInput {
  flow_id?: string;
  status?: OpenTrailStatus;
  reason?: repo.InboxReason;
  view?: repo.InboxView;
  sort?: repo.InboxSort;
  overdue?: boolean;
  limit?: number;
  cursor?: string;
}

export class InboxService {
  constructor(private readonly store: Store) {}

  async list(actor: Actor, input: InboxInput): Promise<Inbox> {
    const db = this.store.db;
    if (input.flow_id) {
      const flow = await findFlow(db, input.flow_id, actor);
      if (!flow) throw new WaymarkError('FLOW_NOT_FOUND', `No flow ${input.flow_id} is visible to this token: list_flows shows the flows you can see.`, { flow_id: input.flow_id });
    }
    const admin = permissionAtLeast(actor.permission, 'admin');
    if (input.view === 'everyone' && !admin) {
      throw new WaymarkError('FORBIDDEN', `The everyone view of the inbox is for Admins; this token's principal has ${actor.permission}. Ask for view mine or groups.`, { required_permission: 'admin' });
    }
    const isPerson = actor.kind === 'person';
    const who: repo.InboxWho = { accountId: actor.accountId, scopeId: actor.scopeId, principalId: actor.principalId, isPerson, groupIds: isPerson ? await groupIdsOf(db, actor.accountId, actor.principalId) : [] };
    const now = nowIso();
    const filter = { flowId: input.flow_id, status: input.status, view: input.view, sort: input.sort, dueBefore: input.overdue ? now : undefined };
    const page = await repo.inboxPage(db, who, { ...filter, reason: input.reason }, { limit: input.limit ?? LIMITS.inboxPageSize, cursor: input.cursor });
    const stepIds = page.rows.map((t) => t.current_step_id).filter((id): id is string => id !== null);
    const steps = new Map((await repo.currentSteps(db, stepIds)).map((s) => [s.id, s]));
    const transfers = await repo.latestTransfers(db, stepIds);
    const flows = await repo.flowTitles(db, [...new Set(page.rows.map((t) => t.flow_id))]);
    const names = await namesOf(
      db,
      actor.accountId,
      [...new Set(page.rows.flatMap((t) => (t.step_assignee ? [t.step_assignee] : [])))],
      [...new Set(page.rows.flatMap((t) => (t.step_group ? [t.step_group] : [])))],
    );
    const items = page.rows.map((t): InboxItem => {
      const step = t.current_step_id ? steps.get(t.current_step_id) : undefined;
      const transfer = t.current_step_id ? transfers.get(t.current_step_id) : undefined;
      return {
        trail_id: t.id,
        trail_title: t.title,
        flow_id: t.flow_id,
        flow_title: flows.get(t.flow_id) ?? '',
        status: t.status as InboxItem['status'],
        step_id: step?.id ?? null,
        bit_id: step?.bit_id ?? null,
        bit_title: step?.bit_title ?? null,
        human_required: Number(step?.human_required ?? 0) === 1,
        reasons: t.reasons,
        transfer: transfer ? { reason: transfer.reason ?? '', transferred_by: transfer.principal_id, transferred_date_time_utc: transfer.at } : null,
        started_by: t.started_by,
        started_date_time_utc: t.created_at,
        entered_date_time_utc: step?.entered_at ?? null,
        last_modified_date_time_utc: t.updated_at,
        assignee: viewOf({ principal: t.step_assignee, group: t.step_group }, names),
        due_date_time_utc: t.step_due_at,
        trail_due_date_time_utc: t.due_at,
        overdue: isOverdue(t.step_due_at, t.status, now) || isOverdue(t.due_at, t.status, now),
      };
    });
    return { items, counts: await repo.inboxCounts(db, who, filter, admin), next_cursor: page.next_cursor };
  }
}
