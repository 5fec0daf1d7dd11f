import { WaymarkError } from '../errors.js';
import { findScope } from '../store/repositories/auth.repo.js';
import type { Db, Tx } from '../store/store.js';
import type { Actor } from './actor.js';

/**
 * A scope id given as input (CONTRACT.md, "Accounts, scopes"): omitted or null is account level; otherwise it
 * must be a scope of the caller's account that the caller can see, else SCOPE_NOT_FOUND.
 */
export async function resolveScope(q: Db | Tx, actor: Actor, scopeId: string | null | undefined): Promise<string | null> {
  if (scopeId === undefined || scopeId === null) return null;
  const scope = await findScope(q, scopeId);
  if (!scope || scope.account_id !== actor.accountId || (actor.scopeId !== null && actor.scopeId !== scopeId)) {
    throw new WaymarkError('SCOPE_NOT_FOUND', `No scope ${scopeId} is visible to this token: omit scope_id for account level, or pass a scope of your account.`, { scope_id: scopeId });
  }
  return scopeId;
}
