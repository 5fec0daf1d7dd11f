/**
 * Who is calling, as the services see it: resolved once from the token, then passed to every
 * service method as its first argument (`(actor, input)`, as in immich).
 */
import { capabilityName, type CapabilityKind } from '../config.js';
import { WaymarkError } from '../errors.js';

export const PERMISSIONS = ['view', 'edit', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];
export type PrincipalKind = 'agent' | 'person';

export interface Actor {
  accountId: string;
  principalId: string;
  kind: PrincipalKind;
  permission: Permission;
  /** Set when the principal is limited to one scope of its account. */
  scopeId: string | null;
  /** Full capability names, e.g. `waymark.author`. */
  capabilities: string[];
}

export function permissionAtLeast(held: Permission, needed: Permission): boolean {
  return PERMISSIONS.indexOf(held) >= PERMISSIONS.indexOf(needed);
}

/**
 * Whether a record of this account and scope is visible to the actor (CONTRACT.md, "Accounts, scopes"):
 * another account's records, and other scopes' records for a scope-limited principal, do not exist for it.
 */
export function canSee(actor: Actor, record: { account_id: string; scope_id: string | null }): boolean {
  if (record.account_id !== actor.accountId) return false;
  return actor.scopeId === null || record.scope_id === null || record.scope_id === actor.scopeId;
}

/** A scope-limited principal writes only in its own scope; account level is refused with a pointer to it. */
export function assertCanWriteIn(actor: Actor, scopeId: string | null): void {
  if (actor.scopeId === null || scopeId === actor.scopeId) return;
  const where = scopeId === null ? 'at account level' : `in scope ${scopeId}`;
  throw new WaymarkError('FORBIDDEN', `This token may write only in scope ${actor.scopeId}, not ${where}: pass scope_id "${actor.scopeId}".`, {
    required_scope_id: actor.scopeId,
  });
}

/** The capability and permission a call needs (CONTRACT.md, "Accounts, scopes, permissions, capabilities"). */
export interface Access {
  /** `read` is also satisfied by `author` (CONTRACT.md); `any` means any valid token. */
  capability: CapabilityKind | 'any';
  permission: Permission;
}

/** A missing capability or permission level is FORBIDDEN, naming what is needed. */
export function assertAccess(actor: Actor, access: Access): void {
  if (access.capability !== 'any') {
    const accepted = access.capability === 'read' ? [capabilityName('read'), capabilityName('author')] : [capabilityName(access.capability)];
    if (!accepted.some((c) => actor.capabilities.includes(c))) {
      throw new WaymarkError('FORBIDDEN', `This token lacks the capability ${accepted[0]}; ask for a token that carries it.`, {
        required_capability: accepted[0],
      });
    }
  }
  if (!permissionAtLeast(actor.permission, access.permission)) {
    throw new WaymarkError('FORBIDDEN', `This tool needs permission ${access.permission}; the token's principal has ${actor.permission}.`, {
      required_permission: access.permission,
    });
  }
}
