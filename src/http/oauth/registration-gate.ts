/**
 * What anonymous dynamic client registration (RFC 7591, POST /oauth/register) may cost (issue 24, finding 6).
 * oidc-provider reads a registration body of up to 56 KB and keeps it whole as the client (that was the 53 KB a
 * client of the attack); a real client's metadata is a few hundred bytes. Before the library sees a request:
 * a per-address rate, a bound on the body (the same 5 KB the library allows a Client ID Metadata Document), and
 * a cap on the clients registered and not yet used by any grant (these expire after a day, auth/oauth-adapter.ts).
 * Registrations per address are counted before this, with the other doors that take no token (rate-limit.ts,
 * WAYMARK_QUOTA_REGISTRATIONS_PER_ADDRESS).
 */
import type { Request, Response } from 'express';
import type { Services } from '../../services/index.js';

export const REGISTRATION_LIMITS = {
  /** Bytes of client metadata in one registration. */
  bodyBytes: 5 * 1024,
  /** Registered clients no grant has used yet, all callers together. */
  unusedClients: 1000,
} as const;

function refuse(res: Response, status: number, error: string, description: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
  res.set('Cache-Control', 'no-store').status(status).json({ error, error_description: description });
}

/** Answers whether the registration may go on to oidc-provider; when not, the refusal has been sent. */
export function registrationGate(services: Services, limits: typeof REGISTRATION_LIMITS = REGISTRATION_LIMITS): (req: Request, res: Response) => Promise<boolean> {
  return async (req, res) => {
    // The length is checked before the library reads the body: a chunked body of unknown length is refused
    // rather than read here and handed on (the library reads the request stream itself).
    const length = req.get('content-length');
    if (length === undefined) {
      refuse(res, 411, 'invalid_request', 'Send the client metadata with a Content-Length.');
      return false;
    }
    if (!/^\d+$/.test(length) || Number(length) > limits.bodyBytes) {
      refuse(res, 413, 'invalid_client_metadata', `Client metadata may be at most ${limits.bodyBytes} bytes.`);
      return false;
    }
    if ((await services.oauth.unusedClientCount()) >= limits.unusedClients) {
      refuse(res, 503, 'temporarily_unavailable', 'Too many clients are registered and not yet used: retry later, or use a Client ID Metadata Document (an https client_id URL).', 3600);
      return false;
    }
    return true;
  };
}
