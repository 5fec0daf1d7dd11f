/**
 * oidc-provider's storage interface over the store (migration 011), so that clients, grants, codes and
 * tokens outlive a restart and are shared by every `serve` process of one store. One instance per model
 * name; the library owns the payload, this file only keeps the columns its lookups need.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import * as repo from '../store/repositories/oauth.repo.js';
import type { Store } from '../store/store.js';

const epoch = (iso: string): number => Math.floor(Date.parse(iso) / 1000);

export class StoreAdapter implements Adapter {
  constructor(
    private readonly store: Store,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await repo.upsertRecord(this.store.db, {
      model: this.model,
      id,
      payload: this.store.dialect.json(payload),
      // A Grant is its own grant: revoking it removes it with everything issued under it.
      grant_id: this.model === 'Grant' ? id : (payload.grantId ?? null),
      uid: payload.uid ?? null,
      principal_id: payload.accountId ?? null,
      expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
      consumed_at: null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.present(await repo.findRecord(this.store.db, this.model, id));
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
