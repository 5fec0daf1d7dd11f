/**
 * The account's people (issues 26 and 27): who the principals of a page of changes are, the account's directory an
 * Admin chooses group members from, and a person's name and email, which an Admin sets. A scope-limited caller is
 * shown only its own scope's principals. An email is shown to an Admin and to its person, to no one else.
 */
import { WaymarkError, validationError } from '../../errors.js';
import { quote } from '../../quote.js';
import type { PrincipalTable } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { permissionAtLeast, type Actor } from '../actor.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { LIMITS } from '../../limits/index.js';
import { assertEmailFree, checkedEmail } from './email.js';
import type { Directory, PersonView } from './shapes.js';

export interface UpdatePersonInput {
  principal_id: string;
  name?: string;
  email?: string | null;
}

function seenBy(actor: Actor, row: Pick<PrincipalTable, 'account_id' | 'scope_id'>): boolean {
  return row.account_id === actor.accountId && (actor.scopeId === null || row.scope_id === actor.scopeId);
}

function viewFor(actor: Actor, row: PrincipalTable): PersonView {
  const mayReadEmail = permissionAtLeast(actor.permission, 'admin') || row.id === actor.principalId;
  return { principal_id: row.id, name: row.name, kind: row.kind, email: mayReadEmail ? row.email : null, scope_id: row.scope_id };
}

export class PeopleService {
  constructor(private readonly store: Store) {}

  /** These principals (any other id is left out), or without ids every principal the caller may see, by name. */
  async list(actor: Actor, input: { principal_ids?: string[] }): Promise<Directory> {
    let query = this.store.db.selectFrom('principals').selectAll().where('account_id', '=', actor.accountId);
    if (actor.scopeId !== null) query = query.where('scope_id', '=', actor.scopeId);
    if (input.principal_ids !== undefined) query = query.where('id', 'in', [...new Set(input.principal_ids)]);
    const rows = await query.orderBy('name').orderBy('id').execute();
    return { people: rows.map((r) => viewFor(actor, r)) };
  }

  /** An Admin renames a person or agent, or sets or clears a person's email; each change records one event. */
  async update(actor: Actor, input: UpdatePersonInput): Promise<PersonView> {
    const name = input.name?.trim();
    if (name !== undefined && (name === '' || name.length > LIMITS.displayLabel)) throw validationError([{ path: 'name', message: `a name is 1 to ${LIMITS.displayLabel} characters, not blank` }]);
    const email = input.email === undefined || input.email === null ? input.email : checkedEmail(input.email);
    try {
      return await this.write(actor, input, name, email);
    } catch (error) {
      // Two Admins giving one email to two people at once: the index refuses the second, as the check would have.
      if (email && this.store.dialect.isUniqueViolation(error)) await assertEmailFree(this.store.db, actor.accountId, email, input.principal_id);
      throw error;
    }
  }

  private async write(actor: Actor, input: UpdatePersonInput, name: string | undefined, email: string | null | undefined): Promise<PersonView> {
    return this.store.transaction(async (tx) => {
      const row = await tx.selectFrom('principals').selectAll().where('id', '=', input.principal_id).executeTakeFirst();
      if (!row || !seenBy(actor, row)) {
        throw new WaymarkError('PRINCIPAL_NOT_FOUND', `No person or agent ${JSON.stringify(quote(input.principal_id))} is visible to you: the people page lists your account's people.`, { principal: input.principal_id, path: 'principal_id' });
      }
      if (email && row.kind !== 'person') throw validationError([{ path: 'email', message: `${row.name} is an agent: only a person has an email` }]);
      if (email) await assertEmailFree(tx, actor.accountId, email, row.id);
      const changes: Partial<PrincipalTable> = {};
      if (name !== undefined && name !== row.name) changes.name = name;
      if (email !== undefined && email !== row.email) changes.email = email;
      if (Object.keys(changes).length === 0) return viewFor(actor, row);
      await tx.updateTable('principals').set(changes).where('id', '=', row.id).execute();
      await recordChange(tx, this.store.dialect, actor, {
        resourceType: 'principal',
        resourceId: row.id,
        scopeId: row.scope_id,
        summary: { fields: fieldsGiven({ name: changes.name, email: changes.email }, []) },
      });
      return viewFor(actor, { ...row, ...changes });
    });
  }
}
