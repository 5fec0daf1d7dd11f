/**
 * The account's scopes by name (issue 28: a person never needs a UUID): who may see which (CONTRACT.md, "Accounts,
 * scopes, permissions, capabilities": an account-level principal every scope of its account, a scope-limited one its
 * own), and an account-level Admin making one from the app. A scope's name is unique in its account, case aside, so
 * that a name on the People page names one scope.
 */
import { randomUUID } from 'node:crypto';
import { WaymarkError, validationError } from '../../errors.js';
import { LIMITS } from '../../limits/index.js';
import { insertScope, listScopes, scopeNameTaken } from '../../store/repositories/auth.repo.js';
import type { Store } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { nowIso } from '../clock.js';
import { recordChange } from '../events/record.js';
import type { ScopeList, ScopeView } from './shapes.js';

function checkedName(text: string): string {
  const name = text.trim();
  if (name === '' || name.length > LIMITS.displayLabel) throw validationError([{ path: 'name', message: `a scope's name is 1 to ${LIMITS.displayLabel} characters, not blank` }]);
  return name;
}

export class ScopesService {
  constructor(private readonly store: Store) {}

  /** The scopes the caller may see, by name. */
  async list(actor: Actor): Promise<ScopeList> {
    const rows = await listScopes(this.store.db, actor.accountId, actor.scopeId);
    return { scopes: rows.map((r) => ({ scope_id: r.id, name: r.name })) };
  }

  /** An account-level Admin makes a scope; its event is recorded in the same transaction. */
  async create(actor: Actor, input: { name: string }): Promise<ScopeView> {
    const name = checkedName(input.name);
    if (actor.scopeId !== null) {
      throw new WaymarkError('FORBIDDEN', 'Only an Admin of the whole account makes scopes: you are an Admin of one scope. Ask an Admin of the whole account.', { required_scope_id: null });
    }
    const row = { id: randomUUID(), account_id: actor.accountId, name, created_at: nowIso() };
    await this.store.transaction(async (tx) => {
      // No unique index holds the rule (scopes made at the command line before it may share a name), so two Admins
      // naming scopes at once wait for each other here: the second sees the first's scope and is refused.
      await this.store.dialect.lockKey(tx, `waymark.scopes:${actor.accountId}`);
      if (await scopeNameTaken(tx, actor.accountId, name)) {
        throw validationError([{ path: 'name', message: `your account already has a scope named ${JSON.stringify(name)}: choose another name` }]);
      }
      await insertScope(tx, row);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'scope', resourceId: row.id, scopeId: row.id, summary: { name } });
    });
    return { scope_id: row.id, name };
  }
}
