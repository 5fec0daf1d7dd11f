/**
 * A bit's assignee in a folder (issue 27): written portably, a person by email and a group by name, so a folder
 * moves between stores and accounts; read back through the bit tools' own resolution (bits/assignee-field.ts), and a
 * name it cannot resolve is a problem of its file and line. A person without an email stays named by id.
 */
import { WaymarkError } from '../../errors.js';
import { parseAssignee } from '../assignee.js';
import { resolveAssignee } from '../bits/assignee-field.js';
import type { Actor } from '../actor.js';
import type { Db, Tx } from '../../store/store.js';
import type { FolderProblem } from './problems.js';

/** Stored assignee → its portable form. */
export type Portable = (stored: string | null) => string | null;

/** The account's people with an email and its groups, as a folder names them. */
export async function portableAssignees(q: Db | Tx, accountId: string): Promise<Portable> {
  const people = await q.selectFrom('principals').select(['id', 'email']).where('account_id', '=', accountId).where('email', 'is not', null).execute();
  const groups = await q.selectFrom('groups').select(['id', 'name']).where('account_id', '=', accountId).execute();
  const names = new Map<string, string>([...people.map((p) => [`person:${p.id}`, `person:${p.email}`] as const), ...groups.map((g) => [`group:${g.id}`, `group:${g.name}`] as const)]);
  return (stored) => (stored === null ? null : (names.get(stored) ?? stored));
}

/**
 * The folder's assignees resolved as add_bit would at the import's scope, each put back in its portable form (so a
 * file that names what the store holds compares unchanged); what cannot be resolved is its file's problem.
 */
export async function resolveFolderAssignees(
  q: Db | Tx,
  actor: Actor,
  scopeId: string | null,
  bits: ReadonlyArray<{ path: string; read: { assignee: string | null; assigneeLine: number | null } }>,
  portable: Portable,
): Promise<FolderProblem[]> {
  const problems: FolderProblem[] = [];
  for (const bit of bits) {
    if (bit.read.assignee === null || parseAssignee(bit.read.assignee) === null) continue;
    try {
      bit.read.assignee = portable(await resolveAssignee(q, actor, bit.read.assignee, scopeId));
    } catch (error) {
      if (!(error instanceof WaymarkError)) throw error;
      problems.push({ file: bit.path, line: bit.read.assigneeLine, code: error.code, message: `assignee: ${error.message}` });
    }
  }
  return problems;
}
