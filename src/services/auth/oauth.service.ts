/**
 * The business side of the authorization server (issue 12): the store-backed records oidc-provider
 * keeps, the keys every process shares, what an OAuth access token may do, and a person's grants.
 * The protocol itself (codes, PKCE, tokens, registration) is oidc-provider's, in src/http/oauth/.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import { allCapabilityNames, capabilityName } from '../../config.js';
import { WaymarkError } from '../../errors.js';
import * as authRepo from '../../store/repositories/auth.repo.js';
import * as repo from '../../store/repositories/oauth.repo.js';
import type { Store } from '../../store/store.js';
import { permissionAtLeast, type Actor } from '../actor.js';
import { nowIso } from '../clock.js';
import { recordChange } from '../events/record.js';
import { withinMaximum } from './maximum.js';
import { StoreAdapter, UNUSED_CLIENT_TTL_SECONDS } from './oauth-adapter.js';
import type { GrantView } from './shapes.js';

export interface OAuthSecrets {
  /** The private signing keys (RFC 7517), as oidc-provider's `jwks` option takes them. */
  jwks: { keys: JWK[] };
  /** Keys that sign the authorization server's cookies. */
  cookieKeys: string[];
}

/** One grant as the person who gave it sees it. */
interface GrantPayload {
  clientId: string;
  iat: number;
  /** Scopes accepted per resource indicator. */
  resources?: Record<string, string>;
  /** Scopes refused per resource indicator: oidc-provider subtracts them from the accepted ones. */
  rejected?: { resources?: Record<string, string> };
}

interface ClientPayload {
  client_name?: string;
  redirect_uris?: string[];
}

/** The scopes of a request or a grant that are Waymark capabilities, in the order CONTRACT.md lists them. */
export function capabilitiesIn(scope: string): string[] {
  const asked = new Set(scope.split(' '));
  return allCapabilityNames().filter((c) => asked.has(c));
}

/**
 * What a person may let an app do (issue 24, finding 3): no more than the sign-in session they consent in
 * carries (a `read,run` link gives no `author`), and of that only what their permission can use: writing
 * needs Edit (CONTRACT.md, "Accounts, scopes, permissions, capabilities"), so a View person cannot hand out
 * `author`. The consent page offers only these, and its answer grants only these.
 */
export function grantableCapabilities(person: Actor): string[] {
  const author = capabilityName('author');
  return capabilitiesIn(person.capabilities.join(' ')).filter((c) => c !== author || permissionAtLeast(person.permission, 'edit'));
}

/** The capabilities a grant records as given: accepted for any resource and not refused (refusal wins, as in oidc-provider). */
function grantedBy(grant: GrantPayload): string[] {
  const refused = new Set(capabilitiesIn(Object.values(grant.rejected?.resources ?? {}).join(' ')));
  return capabilitiesIn(Object.values(grant.resources ?? {}).join(' ')).filter((c) => !refused.has(c));
}

export class OAuthService {
  constructor(private readonly store: Store) {}

  adapter(model: string): StoreAdapter {
    return new StoreAdapter(this.store, model);
  }

  /** The keys of this store, made by the first process that needs them and read by every other. */
  async secrets(): Promise<OAuthSecrets> {
    const jwks = await this.secret('jwks', () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' }] };
    });
    const cookieKeys = await this.secret('cookie_keys', () => [randomBytes(32).toString('base64url')]);
    return { jwks: jwks as OAuthSecrets['jwks'], cookieKeys: cookieKeys as string[] };
  }

  private async secret(name: string, make: () => unknown): Promise<unknown> {
    const existing = await repo.findSecret(this.store.db, name);
    if (existing) return this.store.dialect.parseJson(existing.value);
    await repo.insertSecretIfAbsent(this.store.db, { name, value: this.store.dialect.json(make()), created_at: nowIso() });
    const stored = await repo.findSecret(this.store.db, name);
    return this.store.dialect.parseJson(stored?.value);
  }

  /**
   * The actor an access token acts as: its person's principal, with the granted capabilities only. The
   * permission and scope are the principal's, read now, so a token never does more than its person may.
   * With the token's grant, the capabilities are also cut to what the grant records as given (the consent
   * records every capability beyond the person's bound as refused): a token whose scope says more than its
   * grant, however it came to, acts with the grant's (issue 24, finding 3). A grant that is gone acts as no one.
   */
  async actorFor(principalId: string, scope: string, grantId?: string): Promise<Actor | null> {
    const principal = await authRepo.findPrincipal(this.store.db, principalId);
    if (!principal) return null;
    let capabilities = capabilitiesIn(scope);
    let clientName: string | null = null;
    if (grantId !== undefined) {
      const row = await repo.findRecord(this.store.db, 'Grant', grantId);
      if (!row || row.principal_id !== principalId) return null;
      const grant = this.store.dialect.parseJson<GrantPayload>(row.payload);
      const granted = new Set(grantedBy(grant));
      capabilities = capabilities.filter((c) => granted.has(c));
      clientName = await this.clientName(grant.clientId);
    }
    return {
      clientName,
      accountId: principal.account_id,
      principalId: principal.id,
      kind: principal.kind,
      permission: principal.permission,
      scopeId: principal.scope_id,
      // The principal's maximum as it is now (maximum.ts): lowering it cuts the app's tokens at their next use.
      capabilities: withinMaximum(capabilities, principal.max_capabilities),
    };
  }

  /** A registered client's name (its registration's client_name), for the events its calls write. */
  private async clientName(clientId: string): Promise<string | null> {
    const row = await repo.findRecord(this.store.db, 'Client', clientId);
    return row ? (this.store.dialect.parseJson<ClientPayload>(row.payload).client_name ?? null) : null;
  }

  /** The apps the person connected, one row per client, the most recently used first (GrantView). */
  async listGrants(actor: Actor): Promise<GrantView[]> {
    const live = (await repo.listByPrincipal(this.store.db, 'Grant', actor.principalId)).filter((row) => row.expires_at === null || Date.parse(row.expires_at) > Date.now());
    const lastIssued = new Map<string, number>();
    for (const token of await repo.tokensOfGrants(this.store.db, live.map((row) => row.id))) {
      const iat = this.store.dialect.parseJson<{ iat?: number }>(token.payload).iat ?? 0;
      const grantId = token.grant_id as string;
      lastIssued.set(grantId, Math.max(lastIssued.get(grantId) ?? 0, iat));
    }
    const apps = new Map<string, GrantView>();
    for (const row of live) {
      const used = lastIssued.get(row.id);
      // No token was ever issued under it: the authorization was left unfinished (or is under way).
      if (used === undefined) continue;
      const grant = this.store.dialect.parseJson<GrantPayload>(row.payload);
      const created = new Date(grant.iat * 1000).toISOString();
      const usedAt = new Date(used * 1000).toISOString();
      const app = apps.get(grant.clientId);
      if (app) {
        if (grant.iat * 1000 > Date.parse(app.created_at) || (grant.iat * 1000 === Date.parse(app.created_at) && row.id > app.grant_id)) app.grant_id = row.id;
        app.capabilities = [...new Set([...app.capabilities, ...grantedBy(grant)])].sort();
        if (created < app.created_at) app.created_at = created;
        if (usedAt > app.last_used_at) app.last_used_at = usedAt;
        if (app.expires_at !== null && (row.expires_at === null || row.expires_at > app.expires_at)) app.expires_at = row.expires_at;
        continue;
      }
      const clientRow = await repo.findRecord(this.store.db, 'Client', grant.clientId);
      const client = clientRow ? this.store.dialect.parseJson<ClientPayload>(clientRow.payload) : {};
      apps.set(grant.clientId, {
        grant_id: row.id,
        client_id: grant.clientId,
        client_name: client.client_name ?? null,
        redirect_hosts: [...new Set((client.redirect_uris ?? []).map((uri) => new URL(uri).host))],
        capabilities: [...grantedBy(grant)].sort(),
        created_at: created,
        last_used_at: usedAt,
        expires_at: row.expires_at,
      });
    }
    return [...apps.values()].sort((a, b) => (a.last_used_at < b.last_used_at ? 1 : a.last_used_at > b.last_used_at ? -1 : 0));
  }

  /** Registered clients alive and used by no grant yet: those within their first day (auth/oauth-adapter.ts). */
  async unusedClientCount(): Promise<number> {
    const now = Date.now();
    return repo.countClientsExpiringWithin(this.store.db, new Date(now).toISOString(), new Date(now + UNUSED_CLIENT_TTL_SECONDS * 1000).toISOString());
  }

  /** Drops records a day past their expiry (kept that long so that an expired token is reported as expired). */
  async deleteExpired(): Promise<void> {
    await repo.deleteExpired(this.store.db, new Date(Date.now() - 24 * 3600 * 1000).toISOString());
  }

  /** Revokes a grant with every code and token issued under it; another person's grant does not exist. */
  async revokeGrant(actor: Actor, grantId: string): Promise<{ grant_id: string; revoked: true }> {
    return this.store.transaction(async (tx) => {
      const row = await repo.findRecord(tx, 'Grant', grantId);
      if (!row || row.principal_id !== actor.principalId) throw new WaymarkError('GRANT_NOT_FOUND', `No grant ${grantId} of yours: list them with GET /api/v1/oauth/grants.`, { grant_id: grantId });
      const { clientId } = this.store.dialect.parseJson<GrantPayload>(row.payload);
      // The app is one row of the connected apps (listGrants): disconnecting it ends every grant it holds for the person.
      const same = (await repo.listByPrincipal(tx, 'Grant', actor.principalId)).filter((other) => this.store.dialect.parseJson<GrantPayload>(other.payload).clientId === clientId);
      for (const other of new Set([grantId, ...same.map((g) => g.id)])) await repo.deleteByGrant(tx, other);
      await recordChange(tx, this.store.dialect, actor, { resourceType: 'grant', resourceId: grantId, scopeId: actor.scopeId, summary: { client_id: clientId, grants: same.length } });
      return { grant_id: grantId, revoked: true };
    });
  }
}
