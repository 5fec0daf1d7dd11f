/**
 * The only way the authorization server reaches out (issue 24, finding 5): oidc-provider's `fetch` hook, used
 * for Client ID Metadata Documents (an anonymous caller names the URL as its client_id). oidc-provider's own
 * guard closes a socket to a private address only after connecting, so a stranger could still probe the
 * network behind this server. Here the address is judged before any connection: an IP literal as written, a
 * name after DNS resolution (every address it resolves to must be public), and the socket connects to the
 * very address that was judged (the check is the socket's own `lookup`), so a rebinding DNS answer cannot swap
 * it. https only, no redirects followed, the body and the time bounded.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from './addresses.js';

export type CimdSetting = 'on' | 'off' | 'loopback';

/**
 * WAYMARK_OAUTH_CIMD: `on` (the default) fetches Client ID Metadata Documents from public addresses only;
 * `off` turns the feature off (clients register with /oauth/register instead); `loopback` also allows this
 * machine's addresses, for development and tests with a local document server, never private networks.
 */
export function cimdSetting(env: NodeJS.ProcessEnv = process.env): CimdSetting {
  const raw = (env.WAYMARK_OAUTH_CIMD ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'on') return 'on';
  if (raw === 'off' || raw === 'loopback') return raw;
  throw new Error(`WAYMARK_OAUTH_CIMD must be on, off or loopback (got '${env.WAYMARK_OAUTH_CIMD}')`);
}

export interface GuardedFetchOptions {
  allowLoopback: boolean;
  /** The most a response body may hold, whatever the purpose (oidc-provider bounds each purpose below it). */
  maxBytes: number;
  /** The longest a whole fetch may take, connection and body, even without the caller's own signal. */
  timeoutMs: number;
}

export const GUARDED_FETCH_DEFAULTS: Omit<GuardedFetchOptions, 'allowLoopback'> = { maxBytes: 64 * 1024, timeoutMs: 5_000 };

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export function guardedFetch(options: GuardedFetchOptions): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  const allowed = (address: string) => isPublicAddress(address) || (options.allowLoopback && isLoopbackAddress(address));

  // The socket's own resolution: refuses a name with any address that is not allowed, else connects to it.
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    dnsLookup(hostname, { all: true, family: lookupOptions.family }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((a) => !allowed(a.address));
      if (refused || addresses.length === 0) {
        return callback(Object.assign(new Error(`${hostname} resolves to ${refused?.address ?? 'nothing'}, not a public address`), { code: 'EADDRNOTPUBLIC' }), '', 0);
      }
      if (lookupOptions.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };

  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.protocol !== 'https:') return reject(new Error(`only https is fetched, not ${url.protocol}`));
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(literal) !== 0 && !allowed(literal)) return reject(new Error(`${literal} is not a public address`));
      const signals = [AbortSignal.timeout(options.timeoutMs), ...(init.signal ? [init.signal] : [])];
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        if (value !== '') headers[name] = value;
      });
      // agent: false, a socket of its own: no pooled connection (to an address judged for another name) is reused.
      const req = request(url, { method: init.method ?? 'GET', headers, lookup, agent: false, signal: AbortSignal.any(signals) }, (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxBytes) {
            res.destroy();
            reject(new Error(`response over ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, one);
          }
          // A redirect is answered as it is, not followed: the document must be at the client_id URL itself.
          resolve(new Response(NULL_BODY_STATUS.has(status) ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      req.on('error', reject);
      req.end();
    });
}
