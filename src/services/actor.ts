/**
 * Who is calling, as the services see it: resolved once from the token, then passed to every
 * service method as its first argument (`(actor, input)`, as in immich).
 */
import { allCapabilityNames, capabilityName, type CapabilityKind } from '../config.js';
import { WaymarkError } from '../errors.js';
import { PERMISSIONS, type Permission, type PrincipalKind } from '../store/enums.js';
import type { Visibility } from '../store/visibility.js';

export { PERMISSIONS, type Permission, type PrincipalKind } from '../store/enums.js';

/** Its account and scope (`Visibility`) say what it may see; the store's reads take it as is. */
export interface Actor extends Visibility {
  principalId: string;
  kind: PrincipalKind;
  permission: Permission;
  /** Full capability names, e.g. `waymark.author`. */
  capabilities: string[];
  /**
   * Which credential the call came with, as a key that is not the secret (a hash of the token, or the person's
   * web session), for the per-token quotas (quotas.ts); absent, the principal stands for it.
   */
  credential?: string;
  /** The API key the call came with (tokens.id), for the events it writes; absent with a session or an OAuth token. */
  tokenId?: string;
  /** The OAuth client's registered name, when the call came with an access token of a grant (events name it). */
  clientName?: string | null;
  /** When the request arrived at its door, before it was authenticated (arrivals.ts). */
  arrival?: number;
  /** The operator at the server's command line (operatorActor): its changes are recorded as the operator's. */
  operator?: true;
}

/** Stands for the operator as a record's `created_by`: the command line acts as no principal. */
export const OPERATOR_PRINCIPAL = 'operator';

/**
 * The operator at the server's command line acting on one account (`waymark export`, `waymark import`): every
 * capability, Admin, account-wide; events record it as the operator (events/record.ts), as they do `token create`.
 */
export function operatorActor(accountId: string): Actor {
  return { accountId, scopeId: null, principalId: OPERATOR_PRINCIPAL, kind: 'person', permission: 'admin', capabilities: allCapabilityNames(), operator: true };
}

/** The key per-token quotas count a call under. */
export function credentialOf(actor: Actor): string {
  return actor.credential ?? `principal:${actor.principalId}`;
}

export function permissionAtLeast(held: Permission, needed: Permission): boolean {
  return PERMISSIONS.indexOf(held) >= PERMISSIONS.indexOf(needed);
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

/**
 * What the actor lacks for this access, as the FORBIDDEN error that names it, or null when it has it. The one
 * rule both for refusing a call (assertAccess) and for describe_platform's `allowed` (hasAccess).
 */
function accessRefusal(actor: Actor, access: Access): WaymarkError | null {
  if (access.capability !== 'any') {
    const accepted = access.capability === 'read' ? [capabilityName('read'), capabilityName('author')] : [capabilityName(access.capability)];
    if (!accepted.some((c) => actor.capabilities.includes(c))) {
      return new WaymarkError('FORBIDDEN', `This token lacks the capability ${accepted[0]}; ask for a token that carries it.`, {
        required_capability: accepted[0],
      });
    }
  }
  if (!permissionAtLeast(actor.permission, access.permission)) {
    return new WaymarkError('FORBIDDEN', `This tool needs permission ${access.permission}; the token's principal has ${actor.permission}.`, {
      required_permission: access.permission,
    });
  }
  return null;
}

/** What any valid token may call (describe_platform, who am I, a person's own grants and keys). */
export const ANY_TOKEN_ACCESS: Access = { capability: 'any', permission: 'view' };

/** What the trail tools need, to run a trail or to read one (CONTRACT.md: the run capability). */
export const RUN_ACCESS: Access = { capability: 'run', permission: 'view' };

/** Whether the actor may make a call that needs this access. */
export function hasAccess(actor: Actor, access: Access): boolean {
  return accessRefusal(actor, access) === null;
}

/** A missing capability or permission level is FORBIDDEN, naming what is needed. */
export function assertAccess(actor: Actor, access: Access): void {
  const refusal = accessRefusal(actor, access);
  if (refusal) throw refusal;
}
