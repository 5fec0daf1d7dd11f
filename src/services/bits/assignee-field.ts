/**
 * A bit's `assignee` and `expected_duration` (issue 27) as add_bit and update_bit take them and get_bit shows them:
 * the forms are assignee.ts's; here a person named by id or email becomes `person:<principal id>` (a person of the
 * account visible at the bit's scope, else PRINCIPAL_NOT_FOUND), a group named by id or name `group:<group id>`
 * (else GROUP_NOT_FOUND), and a name is put back beside the stored id for people to read.
 */
import { validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { ASSIGNEE_FORMS, assigneeText, durationMs, parseAssignee } from '../assignee.js';
import { findGroupByRef } from '../groups/groups.service.js';
import { findPerson } from '../groups/people.js';
import { findGroup } from '../../store/repositories/groups.repo.js';
import type { Db, Tx } from '../../store/store.js';
import { accountWide, type Visibility } from '../../store/visibility.js';

/** The longest assignee: a form's prefix and an email, a group's name or a context field. */
const ASSIGNEE_LENGTH = 20 + Math.max(LIMITS.emailLength, LIMITS.groupName);
const DURATION_LENGTH = 40;

/** The stored form of an assignee as written; null clears. */
export async function resolveAssignee(q: Db | Tx, seen: Visibility, text: string | null, scopeId: string | null, path = 'assignee'): Promise<string | null> {
  if (text === null || text.trim() === '') return null;
  const parsed = text.length > ASSIGNEE_LENGTH ? null : parseAssignee(text);
  if (!parsed) throw validationError([{ path, message: `${JSON.stringify(text.slice(0, 80))} is not an assignee: write ${ASSIGNEE_FORMS}` }]);
  if (parsed.kind === 'person') return assigneeText({ kind: 'person', ref: (await findPerson(q, seen, parsed.ref, scopeId, path)).id });
  if (parsed.kind === 'group') {
    const group = await findGroupByRef(q, seen, parsed.ref, path);
    // A bit at account level may be run from any scope; a group of one scope would be out of reach of the others.
    if (group.scope_id !== null && group.scope_id !== scopeId) throw validationError([{ path, message: `group ${JSON.stringify(group.name)} belongs to another scope than the bit: choose a group of the bit's scope or of account level` }]);
    return assigneeText({ kind: 'group', ref: group.id });
  }
  return assigneeText(parsed);
}

/** The stored form of an expected duration; null clears. Years and months are refused: their length varies. */
export function checkedDuration(text: string | null, path = 'expected_duration'): string | null {
  if (text === null || text.trim() === '') return null;
  const trimmed = text.trim().toUpperCase();
  if (trimmed.length > DURATION_LENGTH || durationMs(trimmed) === null) {
    const calendar = /^P\d+[YM]/.test(trimmed);
    const hint = calendar ? 'years and months vary in length: write days, e.g. P2D (or P60D for about two months)' : 'write an ISO 8601 duration of weeks, days, hours, minutes or seconds, e.g. P2D, PT4H or P1DT12H';
    throw validationError([{ path, message: `${JSON.stringify(text.slice(0, 40))} is not a duration Waymark accepts: ${hint}` }]);
  }
  return trimmed;
}

/** Who an assignee is, for people to read: a person's or group's name (null for starter, context or one gone). */
export async function assigneeName(q: Db | Tx, accountId: string, stored: string | null): Promise<string | null> {
  const parsed = stored === null ? null : parseAssignee(stored);
  if (!parsed || (parsed.kind !== 'person' && parsed.kind !== 'group')) return null;
  if (parsed.kind === 'group') return (await findGroup(q, parsed.ref, accountWide(accountId)))?.name ?? null;
  const person = await q.selectFrom('principals').select('name').where('id', '=', parsed.ref).where('account_id', '=', accountId).executeTakeFirst();
  return person?.name ?? null;
}
