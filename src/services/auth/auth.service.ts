import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { allCapabilityNames, brand } from '../../config.js';
import { quote } from '../../quote.js';
import { WaymarkError } from '../../errors.js';
import * as repo from '../../store/repositories/auth.repo.js';
import type { Store, Tx } from '../../store/store.js';
import type { Actor, Permission, PrincipalKind } from '../actor.js';
import { nowIso } from '../clock.js';
import { operatorOf, recordChange } from '../events/record.js';
import { assertEmailFree, checkedEmail } from './email.js';
import { assertWithinMaximum, storedMaximum, withinMaximum } from './maximum.js';
import type { OwnTokenView } from './shapes.js';

/**
 * Tokens carry 256 random bits, so a single SHA-256 is enough to store them: there is nothing to
 * brute-force, and verification stays one indexed lookup per request.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const DURATION = /^(\d+)([smhd])$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30d`, `12h`, `15m`, `90s` → milliseconds; anything else is refused. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (!match || Number(match[1]) <= 0) throw new WaymarkError('VALIDATION_ERROR', `A duration is a positive number followed by s, m, h or d (got '${text}')`, { issues: [{ path: 'expires_in', message: 'invalid duration' }] });
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

export interface TokenRequest {
  accountId: string;
  permission: Permission;
  capabilities: string[];
  scopeId?: string | null;
  kind?: PrincipalKind;
  principalId?: string;
  name?: string;
  /** A new person's email (issue 27). */
  email?: string;
  expiresInMs?: number;
}

/** A token as `waymark token list` shows it: never the token or its hash. */
export interface TokenInfo {
  id: string;
  principalId: string;
  kind: PrincipalKind;
  capabilities: string[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A person's own token as their connected-apps page and GET /api/v1/oauth/tokens show it (never the secret). */
export interface IssuedToken {
  token: string;
  principalId: string;
  expiresAt: string | null;
}

/** The name `waymark init` gives the account's owner. */
const OWNER_NAME = 'owner';

/** The columns a credential's row (a token, a web session) carries about the principal it acts as. */
export interface ActorRow {
  account_id: string;
  principal_id: string;
  kind: Actor['kind'];
  permission: Actor['permission'];
  scope_id: string | null;
  /** JSON: a text column, or already parsed by the driver (jsonb). */
  capabilities: unknown;
  /** The principal's maximum (migration 019), read with the credential. */
  max_capabilities: string;
}

/**
 * The Actor of a credential's row: one reading for tokens and sessions. Its capabilities are the credential's cut to
 * the principal's maximum as it is now (maximum.ts): lowering a maximum cuts every credential at its next use.
 */
export function actorOfRow(store: Store, row: ActorRow): Actor {
  return {
    accountId: row.account_id,
    principalId: row.principal_id,
    kind: row.kind,
    permission: row.permission,
    scopeId: row.scope_id,
    capabilities: withinMaximum(store.dialect.parseJson<string[]>(row.capabilities), row.max_capabilities),
  };
}

export class AuthService {
  constructor(private readonly store: Store) {}

  async createAccount(name: string): Promise<string> {
    const id = randomUUID();
    await this.store.transaction(async (tx) => {
      await repo.insertAccount(tx, { id, name, created_at: nowIso() });
      await recordChange(tx, this.store.dialect, operatorOf(id), { resourceType: 'account', resourceId: id, scopeId: null });
    });
    return id;
  }

  async createScope(accountId: string, name: string): Promise<string> {
    if (!(await repo.findAccount(this.store.db, accountId))) throw new WaymarkError('VALIDATION_ERROR', `No account ${accountId}`, { issues: [{ path: 'account', message: 'unknown account' }] });
    const id = randomUUID();
    await this.store.transaction(async (tx) => {
      await repo.insertScope(tx, { id, account_id: accountId, name, created_at: nowIso() });
      await recordChange(tx, this.store.dialect, operatorOf(accountId), { resourceType: 'scope', resourceId: id, scopeId: id });
    });
    return id;
  }

  async createToken(request: TokenRequest): Promise<IssuedToken> {
    const known = new Set(allCapabilityNames());
    const unknown = request.capabilities.filter((c) => !known.has(c));
    if (unknown.length > 0 || request.capabilities.length === 0) {
      throw new WaymarkError('VALIDATION_ERROR', `Capabilities must be among ${[...known].join(', ')} (got ${request.capabilities.join(',') || 'none'})`, {
        issues: [{ path: 'capabilities', message: `unknown: ${unknown.join(',')}` }],
      });
    }
    return this.store.transaction((tx) => this.issueToken(tx, request));
  }

  private async issueToken(tx: Tx, request: TokenRequest): Promise<IssuedToken> {
    if (!(await repo.findAccount(tx, request.accountId))) throw new WaymarkError('VALIDATION_ERROR', `No account ${request.accountId}`, { issues: [{ path: 'account', message: 'unknown account' }] });
    const scopeId = request.scopeId ?? null;
    if (scopeId !== null) {
      const scope = await repo.findScope(tx, scopeId);
      if (!scope || scope.account_id !== request.accountId) throw new WaymarkError('SCOPE_NOT_FOUND', `No scope ${scopeId} in account ${request.accountId}`, { scope_id: scopeId });
    }
    let principalId = request.principalId;
    let principalScopeId = scopeId;
    if (principalId) {
      const principal = await repo.findPrincipal(tx, principalId);
      if (!principal || principal.account_id !== request.accountId) throw new WaymarkError('VALIDATION_ERROR', `No principal ${principalId} in account ${request.accountId}`, { issues: [{ path: 'principal', message: 'unknown principal' }] });
      // A token acts with its principal's permission, kind and scope: asking for others would print a token
      // that is not what it was asked to be.
      const differ = [
        ['permission', request.permission, principal.permission],
        ['kind', request.kind, principal.kind],
        ['scope', request.scopeId, principal.scope_id],
      ].filter(([, asked, held]) => asked !== undefined && asked !== held);
      if (differ.length > 0) {
        const issues = differ.map(([field, asked, held]) => ({ path: String(field), message: `principal ${principalId} has ${String(field)} ${String(held ?? 'account level')}, not ${String(asked ?? 'account level')}` }));
        throw new WaymarkError('VALIDATION_ERROR', `${issues.map((i) => i.message).join('; ')}: a token carries its principal's permission, kind and scope.`, { issues });
      }
      principalScopeId = principal.scope_id;
      assertWithinMaximum(request.capabilities, principal.max_capabilities, `${principal.name} (${principal.id})`);
    } else {
      principalId = randomUUID();
      const email = request.email === undefined ? null : checkedEmail(request.email);
      if (email !== null && (request.kind ?? 'agent') !== 'person') throw new WaymarkError('VALIDATION_ERROR', 'Only a person has an email: pass --kind person with --email.', { issues: [{ path: 'email', message: 'an agent has no email' }] });
      if (email !== null) await assertEmailFree(tx, request.accountId, email, null);
      await repo.insertPrincipal(tx, {
        id: principalId,
        account_id: request.accountId,
        scope_id: scopeId,
        kind: request.kind ?? 'agent',
        permission: request.permission,
        name: request.name ?? `${request.kind ?? 'agent'} ${principalId.slice(0, 8)}`,
        email,
        created_at: nowIso(),
        // A principal made at the command line may be given anything; an Admin lowers it on the People page.
        max_capabilities: storedMaximum(allCapabilityNames()),
        invited_by: null,
        invited_at: null,
      });
    }
    const token = `${brand}_${randomBytes(32).toString('base64url')}`;
    const expiresAt = request.expiresInMs ? new Date(Date.now() + request.expiresInMs).toISOString() : null;
    const tokenId = randomUUID();
    await repo.insertToken(tx, {
      id: tokenId,
      principal_id: principalId,
      token_hash: hashToken(token),
      capabilities: this.store.dialect.json(request.capabilities),
      expires_at: expiresAt,
      created_at: nowIso(),
    });
    await recordChange(tx, this.store.dialect, operatorOf(request.accountId), {
      resourceType: 'token',
      resourceId: tokenId,
      scopeId: principalScopeId,
      summary: { principal_id: principalId, capabilities: request.capabilities, expires_at: expiresAt },
    });
    return { token, principalId, expiresAt };
  }

  /**
   * `waymark init`: the first account with an Admin owner and one token with every capability.
   * Idempotent: on a store that has an account it makes nothing, unless a new token is asked for.
   * One transaction: a process killed between the account and its owner's token (the first `serve` of a
   * new store) must not leave an account that no start will ever give a token for.
   */
  async init(options: { newToken?: boolean; expiresInMs?: number } = {}): Promise<{ accountId: string; created: boolean; token: IssuedToken | null }> {
    return this.store.transaction(async (tx) => {
      const existing = await repo.firstAccount(tx);
      if (existing && !options.newToken) return { accountId: existing.id, created: false, token: null };
      let accountId = existing?.id;
      if (!accountId) {
        accountId = randomUUID();
        await repo.insertAccount(tx, { id: accountId, name: 'default', created_at: nowIso() });
      }
      // --new-token gives the owner another token; it makes no second owner.
      const owner = existing ? await repo.findPrincipalByName(tx, accountId, OWNER_NAME) : undefined;
      const token = await this.issueToken(tx, { accountId, permission: 'admin', capabilities: allCapabilityNames(), kind: owner?.kind ?? 'person', name: OWNER_NAME, principalId: owner?.id, expiresInMs: options.expiresInMs });
      return { accountId, created: !existing, token };
    });
  }

  /** The principal `init` made the first account's owner, or null before the first start. */
  async ownerId(): Promise<string | null> {
    const account = await repo.firstAccount(this.store.db);
    if (!account) return null;
    return (await repo.findPrincipalByName(this.store.db, account.id, OWNER_NAME))?.id ?? null;
  }

  async listTokens(accountId: string, principalId?: string): Promise<TokenInfo[]> {
    if (!(await repo.findAccount(this.store.db, accountId))) throw new WaymarkError('VALIDATION_ERROR', `No account ${quote(accountId)}`, { issues: [{ path: 'account', message: 'unknown account' }] });
    const rows = await repo.listTokens(this.store.db, accountId, principalId);
    return rows.map((row) => ({
      id: row.id,
      principalId: row.principal_id,
      kind: row.kind,
      capabilities: this.store.dialect.parseJson<string[]>(row.capabilities),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
    }));
  }

  /** The tokens a person may still use as themselves (neither revoked nor expired), for their connected-apps page. */
  async listOwnTokens(actor: Actor): Promise<OwnTokenView[]> {
    const now = Date.now();
    return (await this.listTokens(actor.accountId, actor.principalId))
      .filter((t) => t.revokedAt === null && (t.expiresAt === null || Date.parse(t.expiresAt) > now))
      .map((t) => ({ token_id: t.id, capabilities: t.capabilities, created_at: t.createdAt, expires_at: t.expiresAt }));
  }

  /** Revokes a token by its id (from `token list`); revoking a revoked token changes nothing. */
  async revokeToken(tokenId: string, owner?: Actor): Promise<{ revokedAt: string; already: boolean }> {
    return this.store.transaction(async (tx) => {
      const row = await repo.findToken(tx, tokenId);
      // A person revoking from their page sees only their own tokens: another's is as unknown as a missing one.
      if (!row || (owner !== undefined && row.principal_id !== owner.principalId)) {
        const where = owner ? 'GET /api/v1/oauth/tokens lists yours' : 'waymark token list --account ID shows the token ids';
        throw new WaymarkError('VALIDATION_ERROR', `No token ${quote(tokenId)}${owner ? ' of yours' : ''}; ${where}`, { issues: [{ path: 'token', message: 'unknown token' }] });
      }
      if (row.revoked_at !== null) return { revokedAt: row.revoked_at, already: true };
      const now = nowIso();
      if (await repo.revokeToken(tx, tokenId, now)) {
        await recordChange(tx, this.store.dialect, owner ?? operatorOf(row.account_id), { resourceType: 'token', resourceId: tokenId, scopeId: row.scope_id, summary: { principal_id: row.principal_id } });
        return { revokedAt: now, already: false };
      }
      // Another revoke got there first (PostgreSQL: the row was read unlocked).
      const again = await repo.findToken(tx, tokenId);
      return { revokedAt: again?.revoked_at ?? now, already: true };
    });
  }

  /** The actor behind a token, or null when the token is unknown, expired or revoked. */
  async authenticate(token: string): Promise<(Actor & { expiresAt: string | null }) | null> {
    const row = await repo.findTokenByHash(this.store.db, hashToken(token));
    if (!row || row.revoked_at !== null) return null;
    if (row.expires_at !== null && Date.parse(row.expires_at) <= Date.now()) return null;
    return { ...actorOfRow(this.store, row), tokenId: row.token_id, expiresAt: row.expires_at };
  }

  /** A principal's name and kind, for showing who is signed in. */
  async principal(principalId: string): Promise<{ id: string; name: string; kind: PrincipalKind } | null> {
    const row = await repo.findPrincipal(this.store.db, principalId);
    return row ? { id: row.id, name: row.name, kind: row.kind } : null;
  }

  /**
   * These principals by name (the people operation: the web app's Activity page says who changed what). Only those
   * the caller may know of: its own account's and, for a scope-limited caller, its own scope's; any other id is
   * left out, as one that does not exist is.
   */
  async accountName(accountId: string): Promise<string | null> {
    return (await repo.findAccount(this.store.db, accountId))?.name ?? null;
  }
}
