/**
 * The account's people (issues 26, 27 and 28): who the principals of a page of changes are, the account's directory
 * an Admin chooses group members from, and the People page where an Admin invites a person, sets their name, email,
 * permission, scope and maximum (the most any credential of theirs may carry: maximum.ts), and ends their access.
 * A scope-limited caller is shown only its own scope's principals. An email, a permission and a maximum are shown to
 * an Admin and to their own person, to no one else.
 */
import { randomUUID } from 'node:crypto';
import { allCapabilityNames, mailConfigured } from '../../config.js';
import { WaymarkError, validationError } from '../../errors.js';
import { quote } from '../../quote.js';
import { INVITE_MAIL_KIND } from '../../store/enums.js';
import { findScope } from '../../store/repositories/auth.repo.js';
import * as oauthRepo from '../../store/repositories/oauth.repo.js';
import * as signinRepo from '../../store/repositories/signin.repo.js';
import type { PrincipalTable } from '../../store/schema.js';
import type { Store, Tx } from '../../store/store.js';
import { permissionAtLeast, type Actor, type Permission } from '../actor.js';
import { nowIso } from '../clock.js';
import { fieldsGiven, recordChange } from '../events/record.js';
import { LIMITS } from '../../limits/index.js';
import type { InviteSummary } from '../notifications/invite-mail.js';
import { assertEmailFree, checkedEmail } from './email.js';
import { maximumOf, storedMaximum } from './maximum.js';
import { issueLink } from './signin.service.js';
import type { AccessEnded, Directory, Invitation, PersonView } from './shapes.js';

export interface UpdatePersonInput {
  principal_id: string;
  name?: string;
  email?: string | null;
  permission?: Permission;
  /** null: account level. */
  scope_id?: string | null;
  max_capabilities?: string[];
}

export interface InviteInput {
  name: string;
  email: string;
  permission: Permission;
  scope_id?: string | null;
  max_capabilities: string[];
}

/** How long an invitation's link works: the longest a sign-in link may (a person may read their mail days later). */
const INVITE_LINK_MS = LIMITS.signinLinkMaxMs;

function seenBy(actor: Actor, row: Pick<PrincipalTable, 'account_id' | 'scope_id'>): boolean {
  return row.account_id === actor.accountId && (actor.scopeId === null || row.scope_id === actor.scopeId);
}

function viewFor(actor: Actor, row: PrincipalTable): PersonView {
  const mayRead = permissionAtLeast(actor.permission, 'admin') || row.id === actor.principalId;
  return {
    principal_id: row.id,
    name: row.name,
    kind: row.kind,
    email: mayRead ? row.email : null,
    scope_id: row.scope_id,
    permission: mayRead ? row.permission : null,
    max_capabilities: mayRead ? maximumOf(row.max_capabilities) : null,
  };
}

function notFound(principalId: string): WaymarkError {
  return new WaymarkError('PRINCIPAL_NOT_FOUND', `No person or agent ${JSON.stringify(quote(principalId))} is visible to you: the people page lists your account's people.`, { principal: principalId, path: 'principal_id' });
}

function checkedName(text: string | undefined): string | undefined {
  const name = text?.trim();
  if (name !== undefined && (name === '' || name.length > LIMITS.displayLabel)) throw validationError([{ path: 'name', message: `a name is 1 to ${LIMITS.displayLabel} characters, not blank` }]);
  return name;
}

/** Known capabilities, at least one: a person who may be given nothing could not sign in at all. */
function checkedMaximum(capabilities: string[]): string[] {
  const known = allCapabilityNames();
  const unknown = capabilities.filter((c) => !known.includes(c));
  if (unknown.length > 0 || capabilities.length === 0) {
    throw validationError([{ path: 'max_capabilities', message: `choose at least one of ${known.join(', ')}${unknown.length > 0 ? ` (not ${unknown.join(', ')})` : ''}` }]);
  }
  return known.filter((c) => capabilities.includes(c));
}

/** The scope a person is put in: one of the caller's account, and a scope-limited Admin's own. */
async function checkedScope(tx: Tx, actor: Actor, scopeId: string | null): Promise<string | null> {
  if (scopeId !== null) {
    const scope = await findScope(tx, scopeId);
    if (!scope || scope.account_id !== actor.accountId || (actor.scopeId !== null && scope.id !== actor.scopeId)) {
      throw new WaymarkError('SCOPE_NOT_FOUND', `No scope ${JSON.stringify(quote(scopeId))} is visible to you.`, { scope_id: scopeId });
    }
  } else if (actor.scopeId !== null) {
    throw validationError([{ path: 'scope_id', message: 'you are an Admin of one scope: a person you place is of your scope' }]);
  }
  return scopeId;
}

/** Whether a principal is an Admin who can still do an Admin's work (permission admin and `author` in their maximum). */
function administers(row: Pick<PrincipalTable, 'permission' | 'max_capabilities'>): boolean {
  return row.permission === 'admin' && maximumOf(row.max_capabilities).some((c) => c.endsWith('.author'));
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

  /**
   * An Admin invites a person (issue 28): a new person principal with the permission, scope and maximum chosen, and a
   * one-time sign-in link carrying that maximum. With mail configured the link goes to the person's email (recorded
   * in this transaction, sent by the mailer); otherwise the answer carries it, once, for the Admin to pass on.
   */
  async invite(actor: Actor, input: InviteInput): Promise<Invitation> {
    const name = checkedName(input.name) as string;
    const email = checkedEmail(input.email);
    const maximum = checkedMaximum(input.max_capabilities);
    const mail = mailConfigured();
    try {
      return await this.store.transaction(async (tx) => {
        const scopeId = await checkedScope(tx, actor, input.scope_id ?? null);
        await assertEmailFree(tx, actor.accountId, email, null);
        const now = nowIso();
        const row: PrincipalTable = {
          id: randomUUID(),
          account_id: actor.accountId,
          scope_id: scopeId,
          kind: 'person',
          permission: input.permission,
          name,
          email,
          created_at: now,
          max_capabilities: storedMaximum(maximum),
          invited_by: actor.principalId,
          invited_at: now,
        };
        await tx.insertInto('principals').values(row).execute();
        const link = await issueLink(tx, this.store, row, maximum, INVITE_LINK_MS, null);
        if (mail) await this.queueInviteMail(tx, actor, row, link.token, link.expiresAt);
        // One change, one event: the person, with the link made for them (never its secret).
        await recordChange(tx, this.store.dialect, actor, {
          resourceType: 'principal',
          resourceId: row.id,
          scopeId,
          summary: { invited: true, permission: row.permission, max_capabilities: maximum, signin_link_id: link.linkId, expires_at: link.expiresAt, mailed: mail },
        });
        return { person: viewFor(actor, row), mailed: mail, signin_token: mail ? null : link.token, expires_at: link.expiresAt };
      });
    } catch (error) {
      if (this.store.dialect.isUniqueViolation(error)) await assertEmailFree(this.store.db, actor.accountId, email, null);
      throw error;
    }
  }

  /**
   * The invitation's mail, on the mailer's queue (notifications/mailer.ts) in the invitation's transaction: it goes
   * only if the person is made, and is retried like every mail. The row is read already (never listed in the app).
   */
  private async queueInviteMail(tx: Tx, actor: Actor, person: PrincipalTable, token: string, expiresAt: string): Promise<void> {
    const inviter = actor.principalId ? await tx.selectFrom('principals').select('name').where('id', '=', actor.principalId).executeTakeFirst() : undefined;
    const summary: InviteSummary = { signin_token: token, expires_at: expiresAt, invited_by: inviter?.name ?? null };
    const now = nowIso();
    await tx
      .insertInto('notifications')
      .values({
        account_id: person.account_id,
        principal_id: person.id,
        kind: INVITE_MAIL_KIND,
        trail_id: null,
        step_id: null,
        actor_id: actor.principalId,
        summary: JSON.stringify(summary),
        created_at: now,
        read_at: now,
        email_state: 'pending',
        email_next_at: now,
        email_lease_id: null,
        email_leased_until: null,
        email_error: null,
      })
      .execute();
  }

  /**
   * An Admin renames a principal, sets or clears a person's email, or changes their permission, scope or maximum;
   * each accepted change records one event. No change may leave the account without an Admin who can administer it.
   */
  async update(actor: Actor, input: UpdatePersonInput): Promise<PersonView> {
    const name = checkedName(input.name);
    const email = input.email === undefined || input.email === null ? input.email : checkedEmail(input.email);
    const maximum = input.max_capabilities === undefined ? undefined : checkedMaximum(input.max_capabilities);
    try {
      return await this.write(actor, input, name, email, maximum);
    } catch (error) {
      // Two Admins giving one email to two people at once: the index refuses the second, as the check would have.
      if (email && this.store.dialect.isUniqueViolation(error)) await assertEmailFree(this.store.db, actor.accountId, email, input.principal_id);
      throw error;
    }
  }

  private async write(actor: Actor, input: UpdatePersonInput, name: string | undefined, email: string | null | undefined, maximum: string[] | undefined): Promise<PersonView> {
    return this.store.transaction(async (tx) => {
      const row = await tx.selectFrom('principals').selectAll().where('id', '=', input.principal_id).executeTakeFirst();
      if (!row || !seenBy(actor, row)) throw notFound(input.principal_id);
      if (email && row.kind !== 'person') throw validationError([{ path: 'email', message: `${row.name} is an agent: only a person has an email` }]);
      if (email) await assertEmailFree(tx, actor.accountId, email, row.id);
      const changes: Partial<PrincipalTable> = {};
      if (name !== undefined && name !== row.name) changes.name = name;
      if (email !== undefined && email !== row.email) changes.email = email;
      if (input.permission !== undefined && input.permission !== row.permission) changes.permission = input.permission;
      if (input.scope_id !== undefined && input.scope_id !== row.scope_id) changes.scope_id = await checkedScope(tx, actor, input.scope_id);
      if (maximum !== undefined && storedMaximum(maximum) !== storedMaximum(maximumOf(row.max_capabilities))) changes.max_capabilities = storedMaximum(maximum);
      if (Object.keys(changes).length === 0) return viewFor(actor, row);
      const after = { ...row, ...changes };
      if (administers(row) && (!administers(after) || after.scope_id !== null)) await this.assertAnotherAdmin(tx, row);
      await tx.updateTable('principals').set(changes).where('id', '=', row.id).execute();
      const summary: Record<string, string | string[]> = {};
      if (changes.permission !== undefined) summary.permission = changes.permission;
      if (changes.max_capabilities !== undefined) summary.max_capabilities = maximumOf(changes.max_capabilities);
      await recordChange(tx, this.store.dialect, actor, {
        resourceType: 'principal',
        resourceId: row.id,
        scopeId: after.scope_id,
        summary: { fields: fieldsGiven({ name: changes.name, email: changes.email, permission: changes.permission, scope_id: changes.scope_id, max_capabilities: changes.max_capabilities }, []), ...summary },
      });
      return viewFor(actor, after);
    });
  }

  /**
   * The account keeps an account-level Admin who can administer it: the last one may not be demoted, moved into a
   * scope, cut below `author`, or have their access ended (by themself or another Admin).
   */
  private async assertAnotherAdmin(tx: Tx, row: PrincipalTable): Promise<void> {
    const others = await tx.selectFrom('principals').select(['id', 'permission', 'max_capabilities']).where('account_id', '=', row.account_id).where('permission', '=', 'admin').where('scope_id', 'is', null).where('id', '!=', row.id).execute();
    if (others.some(administers)) return;
    throw validationError([{ path: 'principal_id', message: `${row.name} is the account's last Admin: make someone else an Admin first, so that someone can still manage people` }]);
  }

  /**
   * Ends a person's (or agent's) access at once (issue 28): every live sign-in session, every unused sign-in link,
   * every token and every OAuth grant with the tokens issued under it. One event says how many of each.
   */
  async endAccess(actor: Actor, principalId: string): Promise<AccessEnded> {
    return this.store.transaction(async (tx) => {
      const row = await tx.selectFrom('principals').selectAll().where('id', '=', principalId).executeTakeFirst();
      if (!row || !seenBy(actor, row)) throw notFound(principalId);
      if (administers(row) && row.scope_id === null) await this.assertAnotherAdmin(tx, row);
      const now = nowIso();
      const sessions = await signinRepo.revokeSessionsOf(tx, row.id, now);
      const links = await tx.updateTable('signin_links').set({ used_at: now }).where('principal_id', '=', row.id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
      const tokens = await tx.updateTable('tokens').set({ revoked_at: now }).where('principal_id', '=', row.id).where('revoked_at', 'is', null).executeTakeFirst();
      const grants = await oauthRepo.listByPrincipal(tx, 'Grant', row.id);
      for (const grant of grants) await oauthRepo.deleteByGrant(tx, grant.id);
      // The authorization server's own sign-in record of the person goes too: no app can carry on a half-done consent.
      await tx.deleteFrom('oauth_records').where('principal_id', '=', row.id).execute();
      const ended = { sessions_ended: sessions, links_cancelled: Number(links.numUpdatedRows), tokens_revoked: Number(tokens.numUpdatedRows), grants_revoked: grants.length };
      // Nothing was live: nothing changed, and nothing is recorded (record.ts).
      if (Object.values(ended).some((n) => n > 0)) await recordChange(tx, this.store.dialect, actor, { resourceType: 'principal', resourceId: row.id, scopeId: row.scope_id, summary: { access_ended: true, ...ended } });
      return { principal_id: row.id, ...ended };
    });
  }
}
