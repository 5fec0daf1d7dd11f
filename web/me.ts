/**
 * Who is signed in, for every page: what the shell read from /me, and what that person may do. The server decides
 * every call; the pages ask only to leave out the buttons it would refuse.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { PERMISSIONS, type Permission } from '../src/store/enums.js';
import type { Me } from './api.js';

export const MeContext = createContext<Me | null>(null);

export function useMe(): Me | null {
  return useContext(MeContext);
}

/**
 * The capability of this kind and at least this permission (CONTRACT.md: each permission includes the ones before
 * it). A capability's name is `<brand>.<kind>` (src/config.ts), the brand the server's own.
 */
export function may(me: Me | null, kind: 'read' | 'run' | 'author', permission: Permission): boolean {
  if (!me || PERMISSIONS.indexOf(me.permission) < PERMISSIONS.indexOf(permission)) return false;
  return me.capabilities.some((c) => c.endsWith(`.${kind}`) || (kind === 'read' && c.endsWith('.author')));
}
