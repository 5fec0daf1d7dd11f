import type { Insertable } from 'kysely';
import type { SigninLinkTable, SigninSessionTable } from '../schema.js';
import type { Db, Tx } from '../store.js';

type Q = Db | Tx;

export async function insertLink(q: Q, row: Insertable<SigninLinkTable>): Promise<void> {
  await q.insertInto('signin_links').values(row).execute();
}

export async function findLinkByHash(q: Q, tokenHash: string) {
  return q.selectFrom('signin_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks an unused link used; false when another redeem got there first (the link is used once, whoever wins). */
export async function markLinkUsed(q: Q, id: string, at: string): Promise<boolean> {
  const result = await q.updateTable('signin_links').set({ used_at: at }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSession(q: Q, row: Insertable<SigninSessionTable>): Promise<void> {
  await q.insertInto('signin_sessions').values(row).execute();
}

/** The session with its principal, by the hash of its secret. */
export async function findSessionByHash(q: Q, tokenHash: string) {
  return q
    .selectFrom('signin_sessions as s')
    .innerJoin('principals as p', 'p.id', 's.principal_id')
    .select([
      's.id as session_id',
      's.capabilities',
      's.csrf_secret',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.revoked_at',
      'p.id as principal_id',
      'p.account_id',
      'p.scope_id',
      'p.kind',
      'p.permission',
      'p.name',
      'p.max_capabilities',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(q: Q, id: string, at: string): Promise<void> {
  await q.updateTable('signin_sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

/** Ends a live session; whether this call ended it. */
export async function revokeSession(q: Q, id: string, at: string): Promise<boolean> {
  const result = await q.updateTable('signin_sessions').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every live session of a principal; answers how many were live. */
export async function revokeSessionsOf(q: Q, principalId: string, at: string): Promise<number> {
  const result = await q
    .updateTable('signin_sessions')
    .set({ revoked_at: at })
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
