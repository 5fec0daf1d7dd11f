/**
 * oidc-provider's storage interface over the store (migration 011), so that clients, grants, codes and
 * tokens outlive a restart and are shared by every `serve` process of one store. One instance per model
 * name; the library owns the payload, this file only keeps the columns its lookups need.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { findPrincipal } from '../../store/repositories/auth.repo.js';
import * as repo from '../../store/repositories/oauth.repo.js';
import type { Store, Tx } from '../../store/store.js';
import { recordChange } from '../events/record.js';

const epoch = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

/**
 * How long a dynamically registered client lives if no grant ever uses it (issue 24, finding 6): registration is
 * anonymous, so a client nobody consented to is dropped after a day. A grant of the client extends its life to
 * the grant's; the count of clients still within this first day is the registration cap's measure.
 */
export const UNUSED_CLIENT_TTL_SECONDS = 24 * 3600;

export class StoreAdapter implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    let expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null;
    // oidc-provider stores a client without an expiry; a registered one gets the unused client's day, and a
    // client saved again (never the case while registration management is off) keeps a longer life it has.
    if (this.model === 'Client') {
      const unused = new Date(Date.now() + UNUSED_CLIENT_TTL_SECONDS * 1000).toISOString();
      const existing = (await repo.findRecord(this.store.db, 'Client', id))?.expires_at;
      expiresAt = existing !== undefined && (existing === null || existing > unused) ? existing : unused;
    }
    const row = {
      model: this.model,
      id,
      payload: this.store.dialect.json(payload),
      // A Grant is its own grant: revoking it removes it with everything issued under it.
      grant_id: this.model === 'Grant' ? id : (payload.grantId ?? null),
      uid: payload.uid ?? null,
      principal_id: payload.accountId ?? null,
      expires_at: expiresAt,
      consumed_at: null,
    };
    if (this.model !== 'Grant') {
      await repo.upsertRecord(this.store.db, row);
      return;
    }
    await this.store.transaction(async (tx) => {
      await repo.upsertRecord(tx, row);
      // A client a person granted access to lives as long as the grant (its tokens need it).
      if (typeof payload.clientId === 'string' && expiresAt !== null) await repo.extendClientLife(tx, payload.clientId, expiresAt);
      await this.recordGrant(tx, id, payload);
    });
  }

  /** A grant is saved when a person consents (http/oauth/consent.ts): access given to an app is an event of theirs. */
  private async recordGrant(tx: Tx, id: string, payload: AdapterPayload): Promise<void> {
    const principal = payload.accountId ? await findPrincipal(tx, payload.accountId) : undefined;
    if (!principal) return;
    const clientId = typeof payload.clientId === 'string' ? payload.clientId : null;
    const client = clientId ? await repo.findRecord(tx, 'Client', clientId) : undefined;
    const clientName = client ? this.store.dialect.parseJson<{ client_name?: string }>(client.payload).client_name : undefined;
    await recordChange(tx, this.store.dialect, { accountId: principal.account_id, principalId: principal.id, kind: principal.kind, clientName }, {
      resourceType: 'grant',
      resourceId: id,
      scopeId: principal.scope_id,
      summary: { client_id: clientId },
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const row = await repo.findRecord(this.store.db, this.model, id);
    // A client's expiry is this adapter's, not the library's: an expired client is unknown.
    if (this.model === 'Client' && row?.expires_at && Date.parse(row.expires_at) <= Date.now()) return undefined;
    return this.present(row);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.present(await repo.findRecordByUid(this.store.db, this.model, uid));
  }

  /** The device flow is off: no record has a user code. */
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await repo.consumeRecord(this.store.db, this.model, id, new Date().toISOString());
  }

  async destroy(id: string): Promise<void> {
    await repo.deleteRecord(this.store.db, this.model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await repo.deleteByGrant(this.store.db, grantId);
  }

  private present(row: Awaited<ReturnType<typeof repo.findRecord>>): AdapterPayload | undefined {
    // Expiry is the library's to check (every model's payload has exp): an expired access token is still
    // found, so that the bearer check can say it expired rather than that it is unknown.
    if (!row) return undefined;
    const payload = this.store.dialect.parseJson<AdapterPayload>(row.payload);
    // The library detects a replayed authorization code or refresh token by this field.
    return row.consumed_at === null ? payload : { ...payload, consumed: epoch(row.consumed_at) };
  }
}
