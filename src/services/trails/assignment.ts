/**
 * Who does a trail's current step, and by when (issue 27). A bit may name who does its step (bits.assignee, in the
 * forms of services/assignee.ts); when a trail enters the step the name is resolved to a principal or a group, and
 * the step's due time follows from the bit's expected_duration and the trail's own due time. The step's row keeps
 * them (trail_steps.assignee_principal / assignee_group / due_at) and so does the trail's (step_assignee /
 * step_group / step_due_at, what the inbox reads from its indexes). A step nobody is named for stays open to
 * anyone who may run the trail, as before.
 */
import { WaymarkError } from '../../errors.js';
import * as people from '../../store/repositories/assignees.repo.js';
import { OPEN_TRAIL_STATUSES, type TrailStatus } from '../../store/enums.js';
import type { TrailTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import { accountWide } from '../../store/visibility.js';
import type { Actor } from '../actor.js';
import { durationMs, parseAssignee } from '../assignee.js';
import type { BitSnapshot } from './step.js';
import type { StepAssigneeView } from './shapes.js';

type Q = Db | Tx;

/** A step's assignment as the trail's row keeps it. */
export interface StepAssignment {
  /** The principal doing it: named by the bit, handed to, claimed from the group, or reassigned. */
  principal: string | null;
  /** The group it is offered to (it stays set while a member holds it: claimed). */
  group: string | null;
  due: string | null;
}

export const NOBODY: StepAssignment = { principal: null, group: null, due: null };

/** The trail's columns for its current step's assignment (what repo.changeTrail writes with the step). */
export function assignmentColumns(a: StepAssignment): Pick<TrailTable, 'step_assignee' | 'step_group' | 'step_due_at' | 'step_reminded'> {
  return { step_assignee: a.principal, step_group: a.group, step_due_at: a.due, step_reminded: 0 };
}

export function assignmentOf(trail: Pick<TrailTable, 'step_assignee' | 'step_group' | 'step_due_at'>): StepAssignment {
  return { principal: trail.step_assignee, group: trail.step_group, due: trail.step_due_at };
}

/** Whether anyone is named for the step (a person, an agent or a group). */
export function named(a: Pick<StepAssignment, 'principal' | 'group'>): boolean {
  return a.principal !== null || a.group !== null;
}

/**
 * A trail's needs_person (migration 015, extended by issue 27), what the inbox filters and counts on: 0 while an
 * agent may act on its open trail's current step (or the trail is closed), 1 while the step waits for any person
 * (human_required or handed over, nobody named), 2 while it waits for the person or group it is assigned to. An
 * agent may act on a step assigned to itself: that is 0.
 */
export function needsPerson(status: TrailStatus, humanRequired: boolean, a: Pick<StepAssignment, 'principal' | 'group'> & { principalKind?: 'person' | 'agent' | null } = NOBODY): 0 | 1 | 2 {
  if (!(OPEN_TRAIL_STATUSES as readonly TrailStatus[]).includes(status)) return 0;
  if (a.group !== null || (a.principal !== null && a.principalKind !== 'agent')) return 2;
  if (a.principal !== null) return humanRequired ? 2 : 0;
  return humanRequired || status === 'waiting_for_person' ? 1 : 0;
}

/** The earlier of two due times (ISO text compares in time order), either possibly absent. */
function earlier(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
}

/** A step's due time: entered_at plus the bit's expected_duration, and never later than the trail's own due time. */
export function stepDue(enteredAt: string, expectedDuration: string | null, trailDue: string | null): string | null {
  const ms = expectedDuration === null ? null : durationMs(expectedDuration);
  return earlier(ms === null ? null : new Date(Date.parse(enteredAt) + ms).toISOString(), trailDue);
}

export interface Resolved {
  assignment: StepAssignment;
  principalKind: 'person' | 'agent' | null;
  /** Why nobody is named although the bit names someone (the name did not resolve); null otherwise. */
  unresolved: string | null;
}

/**
 * Resolves the bit's assignee for a trail entering its step: the starter, a person, a group, or the person a
 * trail_context field names (by email or principal id, matched lower-cased). A name that does not resolve leaves the
 * step open to anyone, and says why. Lookups are account-wide: the bit's author chose the name.
 */
export async function resolveEntry(
  q: Q,
  trail: Pick<TrailTable, 'account_id' | 'started_by'> & { context: Record<string, unknown> },
  snapshot: Pick<BitSnapshot, 'assignee'>,
): Promise<Resolved> {
  const none = (unresolved: string | null): Resolved => ({ assignment: { ...NOBODY }, principalKind: null, unresolved });
  if (snapshot.assignee === null) return none(null);
  const form = parseAssignee(snapshot.assignee);
  if (form === null) return none(`the bit names "${snapshot.assignee}", which is not an assignee form`);
  const all = accountWide(trail.account_id);
  let ref: string;
  switch (form.kind) {
    case 'group': {
      const group = await people.findGroupByRef(q, all, form.ref);
      if (!group) return none(`the bit offers it to group ${form.ref}, which no longer exists`);
      return { assignment: { principal: null, group: group.id, due: null }, principalKind: null, unresolved: null };
    }
    case 'starter':
      ref = trail.started_by;
      break;
    case 'person':
      ref = form.ref;
      break;
    case 'context': {
      const value = trail.context[form.field];
      if (typeof value !== 'string' || value.trim() === '') return none(`the bit names the person in trail_context.${form.field}, which this trail's context does not give`);
      ref = value.trim().toLowerCase();
      break;
    }
  }
  const person = await people.findPrincipalByRef(q, all, ref);
  if (!person) {
    return none(form.kind === 'context' ? `trail_context.${form.field} ("${ref}") names nobody of this account` : `the bit names ${snapshot.assignee}, who is no longer in this account`);
  }
  return { assignment: { principal: person.id, group: null, due: null }, principalKind: person.kind, unresolved: null };
}

/** The step's assignee by name, as get_trail, the step form and the inbox show it; null when nobody is named. */
export async function assigneeView(q: Q, accountId: string, a: Pick<StepAssignment, 'principal' | 'group'>): Promise<StepAssigneeView | null> {
  if (!named(a)) return null;
  const names = await people.namesOf(q, accountId, a.principal ? [a.principal] : [], a.group ? [a.group] : []);
  return viewOf(a, names);
}

export function viewOf(a: Pick<StepAssignment, 'principal' | 'group'>, names: { people: Map<string, { name: string }>; groups: Map<string, string> }): StepAssigneeView | null {
  if (!named(a)) return null;
  return {
    principal_id: a.principal,
    name: a.principal ? (names.people.get(a.principal)?.name ?? a.principal) : null,
    group_id: a.group,
    group_name: a.group ? (names.groups.get(a.group) ?? a.group) : null,
    claimed: a.principal !== null && a.group !== null,
  };
}

/** Who the step waits for, in words: "Ann Lee", "group Finance", "Ann Lee (from group Finance)". */
export function holderText(view: StepAssigneeView): string {
  if (view.name && view.group_name) return `${view.name} (from group ${view.group_name})`;
  return view.name ?? `group ${view.group_name ?? ''}`;
}

/**
 * What the actor may do on a step with this assignment: act (answer, advance) as it is, act by claiming it first
 * (a member of the group it is offered to), or nothing (STEP_ASSIGNED). An agent acts only on a step nobody is named
 * for or one assigned to itself; a person on one nobody is named for, one assigned to them, or one offered to a
 * group of theirs that no one holds. Admins too: they reassign first (assign_step).
 */
export async function mayActAs(q: Q, actor: Pick<Actor, 'kind' | 'principalId'>, a: Pick<StepAssignment, 'principal' | 'group'>): Promise<'act' | 'claim' | 'no'> {
  if (!named(a) || a.principal === actor.principalId) return 'act';
  if (actor.kind !== 'person' || a.principal !== null || a.group === null) return 'no';
  return (await people.isMember(q, a.group, actor.principalId)) ? 'claim' : 'no';
}

/** STEP_ASSIGNED for someone who may not act on the step: who it waits for, and what to do, in a person's words. */
export function stepAssignedError(actor: Pick<Actor, 'kind'>, step: { trail_id: string; step_id: string | null; title: string }, view: StepAssigneeView, doing: string): WaymarkError {
  const who = holderText(view);
  const message =
    actor.kind !== 'person'
      ? `Step "${step.title}" is assigned to ${who}: an agent must not ${doing} it, and it needs no transfer_step. Tell the user it waits for ${who}; get_trail shows when it has moved on.`
      : view.name
        ? `${view.name} is doing step "${step.title}"; ask them or an Admin to hand it to you.`
        : `Step "${step.title}" is offered to group ${view.group_name}, which you are not in; ask a member of it or an Admin to hand it to you.`;
  return new WaymarkError('STEP_ASSIGNED', message, { trail_id: step.trail_id, step_id: step.step_id, assignee: view });
}

/** One line for whoever reads the step: whom it waits for and by when, or why nobody is named. */
export function waitingForLine(view: StepAssigneeView | null, due: string | null, overdue: boolean, unresolved: string | null): string | null {
  const by = due === null ? '' : overdue ? `, overdue since ${due}` : `, due ${due}`;
  if (view) return `Waits for ${holderText(view)}${by}; only they (or an Admin, by reassigning it) may answer and advance it.`;
  if (unresolved) return `Open to anyone who may run the trail${by}: ${unresolved}.`;
  return due === null ? null : `Open to anyone who may run the trail${by}.`;
}
