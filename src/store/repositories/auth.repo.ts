import { sql, type SqlBool } from 'kysely';
import { lowerText } from '../dialects/dialect.js';
import type { Db, Tx } from '../store.js';
import type { PrincipalTable, ScopeTable } from '../schema.js';

type Q = Db | Tx;

export async function insertAccount(q: Q, row: { id: string; name: string; created_at: string }): Promise<void> {
  await q.insertInto('accounts').values(row).execute();
}

export async function findAccount(q: Q, id: string) {
  return q.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function firstAccount(q: Q) {
  return q.selectFrom('accounts').selectAll().orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

export async function insertScope(q: Q, row: ScopeTable): Promise<void> {
  await q.insertInto('scopes').values(row).execute();
}

export async function findScope(q: Q, id: string) {
  return q.selectFrom('scopes').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The account's scopes by name, or only `onlyId` (a scope-limited caller's own). */
export async function listScopes(q: Q, accountId: string, onlyId: string | null) {
  let query = q.selectFrom('scopes').select(['id', 'name']).where('account_id', '=', accountId);
  if (onlyId !== null) query = query.where('id', '=', onlyId);
  return query.orderBy(lowerText(sql.ref('name'))).orderBy('name').orderBy('id').execute();
}

/** Whether the account has a scope of this name, case aside (folded alike on both engines: lowerText). */
export async function scopeNameTaken(q: Q, accountId: string, name: string): Promise<boolean> {
  const row = await q.selectFrom('scopes').select('id').where('account_id', '=', accountId).where(sql<SqlBool>`${lowerText(sql.ref('name'))} = ${lowerText(sql.val(name))}`).executeTakeFirst();
  return row !== undefined;
}

export async function insertPrincipal(q: Q, row: PrincipalTable): Promise<void> {
  await q.insertInto('principals').values(row).execute();
}

export async function findPrincipal(q: Q, id: string) {
  return q.selectFrom('principals').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The first account-level Admin person of an account named `name` (the owner that `waymark init` made). */
export async function findPrincipalByName(q: Q, accountId: string, name: string) {
  return q
    .selectFrom('principals')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .where('permission', '=', 'admin')
    .where('scope_id', 'is', null)
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function insertToken(
  q: Q,
  row: { id: string; principal_id: string; token_hash: string; capabilities: string; expires_at: string | null; created_at: string },
): Promise<void> {
  await q.insertInto('tokens').values(row).execute();
}

/** The token row with its principal, by the token's hash. */
export async function findTokenByHash(q: Q, tokenHash: string) {
  return q
    .selectFrom('tokens')
    .innerJoin('principals', 'principals.id', 'tokens.principal_id')
    .select([
      'tokens.id as token_id',
      'tokens.capabilities',
      'tokens.expires_at',
      'tokens.revoked_at',
      'principals.id as principal_id',
      'principals.account_id',
      'principals.scope_id',
      'principals.kind',
      'principals.permission',
      'principals.max_capabilities',
    ])
    .where('tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** These principals of one account (ids of another account are left out), by name. */
export async function findPrincipalsOf(q: Q, accountId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('principals').select(['id', 'name', 'kind']).where('account_id', '=', accountId).where('id', 'in', ids).orderBy('name').orderBy('id').execute();
}

/**
 * Every token of an account's principals (or of one of them), oldest first: what `waymark token list` and a
 * person's connected-apps page show (never the hash).
 */
export async function listTokens(q: Q, accountId: string, principalId?: string) {
  let query = q
    .selectFrom('tokens')
    .innerJoin('principals', 'principals.id', 'tokens.principal_id')
    .select(['tokens.id', 'tokens.capabilities', 'tokens.created_at', 'tokens.expires_at', 'tokens.revoked_at', 'principals.id as principal_id', 'principals.kind'])
    .where('principals.account_id', '=', accountId);
  if (principalId !== undefined) query = query.where('principals.id', '=', principalId);
  return query
    .orderBy('tokens.created_at')
    .orderBy('tokens.id')
    .execute();
}

/** A token by its id, with its principal's account and scope. */
export async function findToken(q: Q, id: string) {
  return q
    .selectFrom('tokens')
    .innerJoin('principals', 'principals.id', 'tokens.principal_id')
    .select(['tokens.id', 'tokens.principal_id', 'tokens.revoked_at', 'principals.account_id', 'principals.scope_id'])
    .where('tokens.id', '=', id)
    .executeTakeFirst();
}

/** Marks a token revoked unless it already is; whether this call revoked it. */
export async function revokeToken(q: Q, id: string, at: string): Promise<boolean> {
  const result = await q.updateTable('tokens').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
