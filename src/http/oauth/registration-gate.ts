/**
 * What anonymous dynamic client registration (RFC 7591, POST /oauth/register) may cost (issue 24, finding 6).
 * oidc-provider reads a registration body of up to 56 KB and keeps it whole as the client (that was the 53 KB a
 * client of the attack); a real client's metadata is a few hundred bytes. Before the library sees a request:
 * a per-address rate, a bound on the body (the same 5 KB the library allows a Client ID Metadata Document), and
 * a cap on the clients registered and not yet used by any grant (these expire after a day, oauth-adapter.ts).
 */
import type { Request, Response } from 'express';
import type { Services } from '../../services/index.js';
import { AddressLimiter, type AddressLimit } from './address-limiter.js';

export const REGISTRATION_LIMITS = {
  /** Twenty registrations at once from one address (a person's machine with its several MCP clients), then one a minute. */
  perAddress: { burst: 20, refillMs: 60_000 } satisfies AddressLimit,
  /** Bytes of client metadata in one registration. */
  bodyBytes: 5 * 1024,
  /** Registered clients no grant has used yet, all callers together. */
  unusedClients: 1000,
} as const;

function refuse(res: Response, status: number, error: string, description: string, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
  res.set('Cache-Control', 'no-store').status(status).json({ error, error_description: description });
}

/**
 * The caller's address. Behind the TLS proxy an https public URL implies (provider.ts trusts its headers too),
 * every request comes from the proxy: the caller is the address the proxy appended last to X-Forwarded-For
 * (the entries before it are the caller's own word).
 */
function callerAddress(req: Request, behindProxy: boolean): string {
  const forwarded = behindProxy ? req.get('x-forwarded-for')?.split(',').pop()?.trim() : undefined;
  return forwarded || (req.socket.remoteAddress ?? '');
}

/** Answers whether the registration may go on to oidc-provider; when not, the refusal has been sent. */
export function registrationGate(services: Services, options: { behindProxy: boolean }, limits: typeof REGISTRATION_LIMITS = REGISTRATION_LIMITS): (req: Request, res: Response) => Promise<boolean> {
  const limiter = new AddressLimiter(limits.perAddress);
  return async (req, res) => {
    const wait = limiter.take(callerAddress(req, options.behindProxy));
    if (wait > 0) {
      refuse(res, 429, 'temporarily_unavailable', `Too many registrations from your address: retry in ${wait} s. A client registers once and keeps its client_id.`, wait);
      return false;
    }
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
