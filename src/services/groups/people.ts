/**
 * A person named by id or email, as groups and bits name one (issue 27): a person of the caller's account that both
 * the caller and the record's scope can see (a scope-limited person sees its scope and account level), else
 * PRINCIPAL_NOT_FOUND. An agent is no one's person: a step given to a person is never answered by an agent.
 */
import { WaymarkError } from '../../errors.js';
import { quote } from '../../quote.js';
import { findPersonByRef } from '../../store/repositories/groups.repo.js';
import type { PrincipalTable } from '../../store/schema.js';
import type { Db, Tx } from '../../store/store.js';
import type { Visibility } from '../../store/visibility.js';

const sees = (viewer: string | null, scopeId: string | null) => viewer === null || scopeId === null || scopeId === viewer;

export function personNotFound(ref: string, path: string): WaymarkError {
  return new WaymarkError(
    'PRINCIPAL_NOT_FOUND',
    `No person of your account visible here has the id or email ${quote(ref)}: name a person (not an agent) by principal id or email; an Admin sets people's emails.`,
    { principal: ref, path },
  );
}

/** The person `ref` (a principal id or an email) names, seen by `seen` and visible at `scopeId`. */
export async function findPerson(q: Db | Tx, seen: Visibility, ref: string, scopeId: string | null, path: string): Promise<PrincipalTable> {
  const person = await findPersonByRef(q, seen.accountId, ref);
  if (!person || !sees(seen.scopeId, person.scope_id) || !sees(scopeId, person.scope_id)) throw personNotFound(ref, path);
  return person;
}
