/**
 * Who is signed in to the web app, for the consent and grants pages: the session cookie of issue 11's
 * sign-in, read through SigninService (one sign-in for the app and for OAuth consent).
 */
import type { Request } from 'express';
import type { Services } from '../../services/index.js';
import { SESSION_COOKIE } from '../session/session.js';
import type { PersonSessions } from './consent.js';

export function signedInPersons(services: Services): PersonSessions {
  const personOfSecret = async (secret: unknown) => {
    if (typeof secret !== 'string' || secret === '') return null;
    const session = await services.signin.actorOf(secret);
    if (!session) return null;
    const { accountId, principalId, kind, permission, scopeId, capabilities, name } = session;
    return { actor: { accountId, principalId, kind, permission, scopeId, capabilities }, name };
  };
  return {
    personOf: (req: Request) => personOfSecret((req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE]),
    personOfSecret,
  };
}
