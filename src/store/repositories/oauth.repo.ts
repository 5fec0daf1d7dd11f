import type { Db, Tx } from '../store.js';
import type { OAuthRecordTable } from '../schema.js';

type Q = Db | Tx;

/** Insert or replace one record (oidc-provider upserts a model by id). */
export async function upsertRecord(q: Q, row: OAuthRecordTable): Promise<void> {
  await q
    .insertInto('oauth_records')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['model', 'id']).doUpdateSet({
        payload: row.payload,
        grant_id: row.grant_id,
        uid: row.uid,
        principal_id: row.principal_id,
        expires_at: row.expires_at,
        consumed_at: row.consumed_at,
      }),
    )
    .execute();
}

export async function findRecord(q: Q, model: string, id: string) {
  return q.selectFrom('oauth_records').selectAll().where('model', '=', model).where('id', '=', id).executeTakeFirst();
}

export async function findRecordByUid(q: Q, model: string, uid: string) {
  return q.selectFrom('oauth_records').selectAll().where('model', '=', model).where('uid', '=', uid).executeTakeFirst();
}

export async function consumeRecord(q: Q, model: string, id: string, at: string): Promise<void> {
  await q.updateTable('oauth_records').set({ consumed_at: at }).where('model', '=', model).where('id', '=', id).execute();
}

export async function deleteRecord(q: Q, model: string, id: string): Promise<void> {
  await q.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();
}

/** Every code and token issued under a grant (RFC 7009 revocation, a person revoking the grant). */
export async function deleteByGrant(q: Q, grantId: string): Promise<void> {
  await q.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
}

/** The tokens issued under these grants (their payloads carry when: iat). */
export async function tokensOfGrants(q: Q, grantIds: string[]) {
  if (grantIds.length === 0) return [];
  return q.selectFrom('oauth_records').select(['grant_id', 'payload']).where('model', 'in', ['AccessToken', 'RefreshToken']).where('grant_id', 'in', grantIds).execute();
}

/** A principal's records of one model, newest expiry first (a person's grants). */
export async function listByPrincipal(q: Q, model: string, principalId: string) {
  return q.selectFrom('oauth_records').selectAll().where('model', '=', model).where('principal_id', '=', principalId).orderBy('expires_at', 'desc').orderBy('id').execute();
}

/** Clients whose expiry falls in (from, to]: the registered clients no grant has used (auth/oauth-adapter.ts). */
export async function countClientsExpiringWithin(q: Q, from: string, to: string): Promise<number> {
  const row = await q
    .selectFrom('oauth_records')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('model', '=', 'Client')
    .where('expires_at', '>', from)
    .where('expires_at', '<=', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A registered client lives at least until `until` (a grant of it was given); one that never expires stays so. */
export async function extendClientLife(q: Q, clientId: string, until: string): Promise<void> {
  await q.updateTable('oauth_records').set({ expires_at: until }).where('model', '=', 'Client').where('id', '=', clientId).where('expires_at', '<', until).execute();
}

export async function deleteExpired(q: Q, now: string): Promise<void> {
  await q.deleteFrom('oauth_records').where('expires_at', '<', now).execute();
}

/** The first writer wins: two processes starting on a new store keep the same secret. */
export async function insertSecretIfAbsent(q: Q, row: { name: string; value: string; created_at: string }): Promise<void> {
  await q.insertInto('oauth_secrets').values(row).onConflict((oc) => oc.column('name').doNothing()).execute();
}

export async function findSecret(q: Q, name: string) {
  return q.selectFrom('oauth_secrets').selectAll().where('name', '=', name).executeTakeFirst();
}
