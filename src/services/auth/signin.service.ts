/**
 * Sign-in without passwords (issue 11), one module with a small interface so that other front doors (the OAuth
 * consent page) reuse it: a one-time link for a principal, redeemed for a session, and the session's Actor,
 * built on the same model as a token's (the principal's account, scope, kind and permission; the capabilities
 * the link was made with). Link and session secrets carry 256 random bits and are stored only as SHA-256,
 * as tokens are (auth/auth.service.ts, hashToken).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { allCapabilityNames, brand, capabilityName } from '../../config.js';
import { LIMITS } from '../../limits/index.js';
import { validationError } from '../../errors.js';
import { findPrincipal } from '../../store/repositories/auth.repo.js';
import * as repo from '../../store/repositories/signin.repo.js';
import type { PrincipalTable } from '../../store/schema.js';
import type { Store, Tx } from '../../store/store.js';
import type { Actor } from '../actor.js';
import { actorOfRow, hashToken } from './auth.service.js';
import { nowIso } from '../clock.js';
import { operatorOf, recordChange, type ChangeAuthor } from '../events/record.js';
import { assertWithinMaximum, withinMaximum } from './maximum.js';

/** What a session carries besides its Actor: its id, the key its CSRF tokens are signed with, the person's name. */
export interface SessionActor extends Actor {
  sessionId: string;
  csrfSecret: string;
  name: string;
  expiresAt: string;
}

export interface IssuedLink {
  token: string;
  principalId: string;
  expiresAt: string;
}

/** Why a link opened no session: never seen (or forged), already used, or too old. */
export type RedeemRefusal = 'unknown' | 'used' | 'expired';

export type RedeemResult = { ok: true; session: string; principalId: string; expiresAt: string } | { ok: false; reason: RedeemRefusal };

/** What a session may do unless the link says otherwise: read (author pages are read-only) and run trails. */
export const DEFAULT_SESSION_CAPABILITIES = [capabilityName('read'), capabilityName('run')];

/**
 * A one-time link for a person, written in the caller's transaction (`waymark signin-link create`, and an Admin's
 * invitation: people.service.ts). The capabilities are already checked against the maximum. With `by`, the link's own
 * event is recorded; without, the caller's change (the invitation) is the one event and names the link.
 */
export async function issueLink(tx: Tx, store: Store, principal: Pick<PrincipalTable, 'id' | 'account_id' | 'scope_id'>, capabilities: readonly string[], lifeMs: number, by: ChangeAuthor | null): Promise<IssuedLink & { linkId: string }> {
  const token = secret('link');
  const now = nowIso();
  const expiresAt = new Date(Date.parse(now) + lifeMs).toISOString();
  const id = randomUUID();
  await repo.insertLink(tx, {
    id,
    principal_id: principal.id,
    token_hash: hashToken(token),
    capabilities: JSON.stringify([...new Set(capabilities)]),
    expires_at: expiresAt,
    used_at: null,
    created_at: now,
  });
  if (by) await recordChange(tx, store.dialect, by, { resourceType: 'signin_link', resourceId: id, scopeId: principal.scope_id, summary: { principal_id: principal.id, expires_at: expiresAt } });
  return { token, principalId: principal.id, expiresAt, linkId: id };
}

/** A session is seen again at most this often, so that a busy page does not write on every request. */
const TOUCH_EVERY_MS = 60_000;

const secret = (kind: 'link' | 'session') => `${brand}_${kind}_${randomBytes(32).toString('base64url')}`;

export class SigninService {
  constructor(private readonly store: Store) {}

  async createLink(input: { principalId: string; expiresInMs?: number; capabilities?: string[] }): Promise<IssuedLink> {
    const lifeMs = input.expiresInMs ?? LIMITS.signinLinkMs;
    if (lifeMs > LIMITS.signinLinkMaxMs) {
      throw validationError([{ path: 'expires_in', message: `at most ${LIMITS.signinLinkMaxMs / 86_400_000}d: a sign-in link is a short-lived secret` }]);
    }
    const capabilities = input.capabilities ?? DEFAULT_SESSION_CAPABILITIES;
    const known = new Set(allCapabilityNames());
    if (capabilities.length === 0 || capabilities.some((c) => !known.has(c))) {
      throw validationError([{ path: 'capabilities', message: `must be among ${[...known].join(', ')} (got ${capabilities.join(',') || 'none'})` }]);
    }
    const principal = await findPrincipal(this.store.db, input.principalId);
    if (!principal) throw validationError([{ path: 'principal', message: `no principal ${input.principalId}` }]);
    // The app is where people answer the steps agents may not (authoring-interface.md: "A person answers them in an app").
    if (principal.kind !== 'person') throw validationError([{ path: 'principal', message: `principal ${principal.id} is an agent; sign-in links are for people (an agent uses a token)` }]);
    // Without --capabilities the link asks for the default, cut to what the person may have; asked for, beyond it is refused.
    const asked = input.capabilities ?? withinMaximum(capabilities, principal.max_capabilities);
    if (asked.length === 0) assertWithinMaximum(capabilities, principal.max_capabilities, `${principal.name} (${principal.id})`);
    assertWithinMaximum(asked, principal.max_capabilities, `${principal.name} (${principal.id})`);
    const { linkId: _linkId, ...link } = await this.store.transaction((tx) => issueLink(tx, this.store, principal, asked, lifeMs, operatorOf(principal.account_id)));
    return link;
  }

  /** Uses the link (once: a second redeem, even a concurrent one, is refused as used) and opens a session. */
  async redeem(token: string): Promise<RedeemResult> {
    return this.store.transaction(async (tx) => {
      const link = await repo.findLinkByHash(tx, hashToken(token));
      if (!link) return { ok: false, reason: 'unknown' };
      if (link.used_at !== null) return { ok: false, reason: 'used' };
      const now = nowIso();
      if (link.expires_at <= now) return { ok: false, reason: 'expired' };
      if (!(await repo.markLinkUsed(tx, link.id, now))) return { ok: false, reason: 'used' };
      const session = secret('session');
      const expiresAt = new Date(Date.parse(now) + LIMITS.sessionAbsoluteMs).toISOString();
      const sessionId = randomUUID();
      await repo.insertSession(tx, {
        id: sessionId,
        principal_id: link.principal_id,
        token_hash: hashToken(session),
        capabilities: link.capabilities,
        csrf_secret: randomBytes(32).toString('base64url'),
        created_at: now,
        last_seen_at: now,
        expires_at: expiresAt,
        revoked_at: null,
      });
      const principal = await findPrincipal(tx, link.principal_id);
      if (principal) {
        const author = { accountId: principal.account_id, principalId: principal.id, kind: principal.kind };
        await recordChange(tx, this.store.dialect, author, { resourceType: 'session', resourceId: sessionId, scopeId: principal.scope_id, summary: { signin_link_id: link.id } });
      }
      return { ok: true, session, principalId: link.principal_id, expiresAt };
    });
  }

  /** The session's Actor, or null when it is unknown, revoked, idle too long or past its absolute end. */
  async actorOf(session: string): Promise<SessionActor | null> {
    const row = await repo.findSessionByHash(this.store.db, hashToken(session));
    if (!row || row.revoked_at !== null) return null;
    const now = Date.now();
    const lastSeen = Date.parse(row.last_seen_at);
    if (Date.parse(row.expires_at) <= now || lastSeen + LIMITS.sessionIdleMs <= now) return null;
    if (now - lastSeen >= TOUCH_EVERY_MS) await repo.touchSession(this.store.db, row.session_id, new Date(now).toISOString());
    return {
      ...actorOfRow(this.store, row),
      sessionId: row.session_id,
      csrfSecret: row.csrf_secret,
      name: row.name,
      expiresAt: row.expires_at,
    };
  }

  /** Ends the session; an unknown or ended one is left as it is. */
  async signOut(session: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      const row = await repo.findSessionByHash(tx, hashToken(session));
      if (!row || row.revoked_at !== null) return;
      if (!(await repo.revokeSession(tx, row.session_id, nowIso()))) return;
      await recordChange(tx, this.store.dialect, actorOfRow(this.store, row), { resourceType: 'session', resourceId: row.session_id, scopeId: row.scope_id });
    });
  }

  /** Ends every live session of a principal (`waymark session revoke`); answers how many there were. */
  async revokeSessions(principalId: string): Promise<number> {
    const principal = await findPrincipal(this.store.db, principalId);
    if (!principal) throw validationError([{ path: 'principal', message: `no principal ${principalId}` }]);
    return this.store.transaction(async (tx) => {
      const ended = await repo.revokeSessionsOf(tx, principalId, nowIso());
      if (ended > 0) await recordChange(tx, this.store.dialect, operatorOf(principal.account_id), { resourceType: 'principal', resourceId: principalId, scopeId: principal.scope_id, summary: { sessions_ended: ended } });
      return ended;
    });
  }
}
